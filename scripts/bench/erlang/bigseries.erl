%% bigseries D F -- big-integer series (the same algorithm and messages as
%% scripts/bench/bigseries.hum).
-module(bigseries).
-export([main/1]).

-define(P, 1000000007).

pow10(0, Acc) -> Acc;
pow10(K, Acc) -> pow10(K - 1, Acc * 10).
digits(X, K) when X < 10 -> K + 1;
digits(X, K) -> digits(X div 10, K + 1).
e_sum(0, _, Acc) -> Acc;
e_sum(Term, K, Acc) -> e_sum(Term div K, K + 1, Acc + Term).
fib(0, A, _) -> A;
fib(I, A, B) -> fib(I - 1, B, A + B).
fact(0, Acc) -> Acc;
fact(K, Acc) -> fact(K - 1, Acc * K).

main([DS, FS]) ->
    D = list_to_integer(DS),
    F = list_to_integer(FS),
    Self = self(),
    spawn(fun() -> E = e_sum(pow10(D, 1), 1, 0), Self ! {e, E rem ?P} end),
    spawn(fun() ->
                  X = fib(F, 0, 1) * fact(2000, 1),
                  Self ! {f, X rem ?P, digits(X div pow10(20000, 1), 20000)}
          end),
    R1 = receive {e, E} -> E end,
    {FM, FD} = receive {f, A, B} -> {A, B} end,
    io:format("~b, ~b, ~b~n", [R1, FM, FD]),
    erlang:halt(0).
