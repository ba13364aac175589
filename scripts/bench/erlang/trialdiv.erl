%% trialdiv N W -- counts the primes below N by trial division, split over
%% W processes (the same algorithm and messages as scripts/bench/trialdiv.hum).
-module(trialdiv).
-export([main/1]).

prime(N, D) ->
    if D * D > N -> true; N rem D =:= 0 -> false; true -> prime(N, D + 2) end.
is_prime(N) ->
    if N < 2 -> false; N =:= 2 -> true; N rem 2 =:= 0 -> false; true -> prime(N, 3) end.
count(Hi, Hi, Acc) -> Acc;
count(Lo, Hi, Acc) ->
    case is_prime(Lo) of true -> count(Lo + 1, Hi, Acc + 1); false -> count(Lo + 1, Hi, Acc) end.

collect(1, Total) -> receive N -> io:format("~b~n", [Total + N]) end;
collect(Left, Total) -> receive N -> collect(Left - 1, Total + N) end.

main([NS, WS]) ->
    N = list_to_integer(NS),
    W = list_to_integer(WS),
    Self = self(),
    Cust = spawn(fun() -> collect(W, 0), Self ! finished end),
    [spawn(fun() -> Cust ! count(N * I div W, N * (I + 1) div W, 0) end) || I <- lists:seq(0, W - 1)],
    receive finished -> ok end,
    erlang:halt(0).
