-- The Lua twin of readlines.hum: the lines of a file, one by one.
local lines, chars = 0, 0
for line in io.lines(arg[1]) do
  lines = lines + 1
  chars = chars + #line
end
print(lines .. ", " .. chars)
