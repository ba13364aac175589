%% Savina sieve N M -- the same processes, messages and prime lists as
%% scripts/bench/savina/sieve.hum. Prints the number of primes below N.
-module(savina_sieve).
-export([main/1]).

locally_prime(N, [P | Rest]) -> N rem P =/= 0 andalso locally_prime(N, Rest);
locally_prime(_, []) -> true.

append_one([Y | Rest], X) -> [Y | append_one(Rest, X)];
append_one([], X) -> [X].

filter(Id, Primes, Count, Next, M, Main) ->
    receive
        exit when Next =:= none ->
            io:format("~b~n", [(Id - 1) * M + Count]),
            Main ! done;
        exit ->
            Next ! exit;
        N ->
            case locally_prime(N, Primes) of
                false -> filter(Id, Primes, Count, Next, M, Main);
                true when Next =/= none ->
                    Next ! N,
                    filter(Id, Primes, Count, Next, M, Main);
                true when Count < M ->
                    filter(Id, append_one(Primes, N), Count + 1, Next, M, Main);
                true ->
                    New = spawn(fun() -> filter(Id + 1, [N], 1, none, M, Main) end),
                    filter(Id, Primes, Count, New, M, Main)
            end
    end.

produce(N, Limit, First) when N < Limit -> First ! N, produce(N + 2, Limit, First);
produce(_, _, First) -> First ! exit.

main([NS, MS]) ->
    N = list_to_integer(NS),
    M = list_to_integer(MS),
    Main = self(),
    spawn(fun() -> produce(3, N, spawn(fun() -> filter(1, [2], 1, none, M, Main) end)) end),
    receive done -> ok end,
    erlang:halt(0).
