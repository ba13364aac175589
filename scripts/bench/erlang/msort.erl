%% msort N R -- merge sort of R lists of N pseudo-random integers, a process
%% per list (the same algorithm and messages as scripts/bench/msort.hum).
-module(msort).
-export([main/1]).

next_random(X) -> (X * 1103515245 + 12345) rem 2147483648.
randoms(0, _, Acc) -> Acc;
randoms(K, Seed, Acc) -> randoms(K - 1, next_random(Seed), [Seed rem 1000000 | Acc]).

rev([X | Rest], Acc) -> rev(Rest, [X | Acc]);
rev([], Acc) -> Acc.
split([X | Rest], A, B) -> split(Rest, B, [X | A]);
split([], A, B) -> {A, B}.
merge([X | Xs1] = Xs, [Y | Ys1] = Ys, Acc) ->
    if X =< Y -> merge(Xs1, Ys, [X | Acc]); true -> merge(Xs, Ys1, [Y | Acc]) end;
merge([_ | _] = Xs, _, Acc) -> rev(Acc, Xs);
merge(_, Ys, Acc) -> rev(Acc, Ys).
msort([_, _ | _] = Xs) -> {A, B} = split(Xs, [], []), merge(msort(A), msort(B), []);
msort(Xs) -> Xs.
checksum([X | Rest], Acc) -> checksum(Rest, (Acc * 31 + X) rem 1000000007);
checksum([], Acc) -> Acc.

collect(1, Total) -> receive N -> io:format("~b~n", [Total + N]) end;
collect(Left, Total) -> receive N -> collect(Left - 1, Total + N) end.

main([NS, RS]) ->
    N = list_to_integer(NS),
    R = list_to_integer(RS),
    Self = self(),
    Cust = spawn(fun() -> collect(R, 0), Self ! finished end),
    [spawn(fun() -> Cust ! checksum(msort(randoms(N, K, [])), 0) end) || K <- lists:seq(R, 1, -1)],
    receive finished -> ok end,
    erlang:halt(0).
