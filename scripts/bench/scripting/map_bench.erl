%% The Erlang twin of map_bench.hum: 100,000 puts into a map, then 100,000 gets.
-module(map_bench).
-export([main/1]).
fill(M, N, N) -> M;
fill(M, I, N) -> fill(maps:put((I * 7919) rem 100003, I, M), I + 1, N).
total(_, N, N, Acc) -> Acc;
total(M, I, N, Acc) -> total(M, I + 1, N, Acc + maps:get((I * 7919) rem 100003, M)).
main(_) ->
    N = 100000,
    io:format("~p~n", [total(fill(#{}, 0, N), 0, N, 0)]),
    halt().
