%% The Erlang twin of scripts/wordfreq.hum: standard input line by line,
%% each line split into words on spaces, counted in a map; the ten most
%% frequent printed as "word: n" (most frequent first, ties in order).
-module(wordfreq).
-export([main/1]).

main(_) ->
    ok = io:setopts(standard_io, [binary]),
    Counts = loop(#{}),
    Sorted = lists:sort(fun({W1, N1}, {W2, N2}) -> N1 > N2 orelse (N1 =:= N2 andalso W1 =< W2) end,
                        maps:to_list(Counts)),
    [io:format("~s: ~p~n", [W, N]) || {W, N} <- lists:sublist(Sorted, 10)],
    halt().

loop(Counts) ->
    case io:get_line(standard_io, "") of
        eof -> Counts;
        Line -> loop(count(binary:split(string:trim(Line), <<" ">>, [global]), Counts))
    end.

count([], Counts) -> Counts;
count([<<>> | Rest], Counts) -> count(Rest, Counts);
count([W | Rest], Counts) -> count(Rest, maps:update_with(W, fun(N) -> N + 1 end, 1, Counts)).
