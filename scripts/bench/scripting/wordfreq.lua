-- The Lua 5.4 twin of scripts/wordfreq.hum: standard input line by line,
-- each line split into words on spaces, counted in a table; the ten most
-- frequent printed as "word: n" (most frequent first, ties in order).
local counts = {}
for line in io.lines() do
  for w in line:gmatch("[^ ]+") do counts[w] = (counts[w] or 0) + 1 end
end
local items = {}
for w, n in pairs(counts) do items[#items + 1] = {w, n} end
table.sort(items, function(a, b) if a[2] ~= b[2] then return a[2] > b[2] end return a[1] < b[1] end)
for i = 1, math.min(10, #items) do print(items[i][1] .. ": " .. items[i][2]) end
