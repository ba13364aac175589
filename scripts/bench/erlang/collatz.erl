%% collatz N W -- the longest Collatz chain below N, split over W processes
%% (the same algorithm and messages as scripts/bench/collatz.hum).
-module(collatz).
-export([main/1]).

steps(1, K) -> K;
steps(N, K) -> if N rem 2 =:= 0 -> steps(N div 2, K + 1); true -> steps(N * 3 + 1, K + 1) end.

best(Hi, Hi, Start, Len) -> {Start, Len};
best(Lo, Hi, Start, Len) ->
    K = steps(Lo, 0),
    if K > Len -> best(Lo + 1, Hi, Lo, K); true -> best(Lo + 1, Hi, Start, Len) end.

collect(Left, Start, Len) ->
    receive
        {S, L} ->
            {Start1, Len1} = if L > Len -> {S, L}; L =:= Len -> {min(S, Start), L}; true -> {Start, Len} end,
            if Left =:= 1 -> io:format("~b, ~b~n", [Start1, Len1]);
               true -> collect(Left - 1, Start1, Len1)
            end
    end.

main([NS, WS]) ->
    N = list_to_integer(NS),
    W = list_to_integer(WS),
    Self = self(),
    Cust = spawn(fun() -> collect(W, 0, 0), Self ! finished end),
    [spawn(fun() -> Cust ! best(max(1, N * I div W), N * (I + 1) div W, 0, 0) end) || I <- lists:seq(0, W - 1)],
    receive finished -> ok end,
    erlang:halt(0).
