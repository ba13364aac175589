%% listops N R -- map, filter and fold over lists with funs, R times
%% (the same algorithm and messages as scripts/bench/listops.hum).
-module(listops).
-export([main/1]).

rev([X | Rest], Acc) -> rev(Rest, [X | Acc]);
rev([], Acc) -> Acc.
range(Lo, Hi, Acc) when Hi < Lo -> Acc;
range(Lo, Hi, Acc) -> range(Lo, Hi - 1, [Hi | Acc]).
map(F, [X | Rest], Acc) -> map(F, Rest, [F(X) | Acc]);
map(_, [], Acc) -> rev(Acc, []).
filter(P, [X | Rest], Acc) ->
    case P(X) of true -> filter(P, Rest, [X | Acc]); _ -> filter(P, Rest, Acc) end;
filter(_, [], Acc) -> rev(Acc, []).
fold(F, Acc, [X | Rest]) -> fold(F, F(Acc, X), Rest);
fold(_, Acc, []) -> Acc.

pass(K, N) ->
    Squares = map(fun(X) -> (X * (X + K)) rem 1000 end, range(1, N, []), []),
    Odd = filter(fun(X) -> X rem 2 =:= 1 end, Squares, []),
    fold(fun(A, X) -> A + X end, 0, Odd).

collect(1, Total) -> receive N -> io:format("~b~n", [Total + N]) end;
collect(Left, Total) -> receive N -> collect(Left - 1, Total + N) end.

main([NS, RS]) ->
    N = list_to_integer(NS),
    R = list_to_integer(RS),
    Self = self(),
    Cust = spawn(fun() -> collect(R, 0), Self ! finished end),
    [spawn(fun() -> Cust ! pass(K, N) end) || K <- lists:seq(R, 1, -1)],
    receive finished -> ok end,
    erlang:halt(0).
