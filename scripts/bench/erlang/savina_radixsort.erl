%% Savina radixsort N M -- the same processes, messages and arithmetic as
%% scripts/bench/savina/radixsort.hum. Prints N, the sum and the number of
%% values smaller than the one before.
-module(savina_radixsort).
-export([main/1]).

next_random(X) -> (X * 1309 + 13849) band 65535.

sort_actor(Radix, Next, Seen, Kept, N) ->
    receive
        V ->
            Zero = (V div Radix) rem 2 =:= 0,
            if Seen + 1 =:= N ->
                   if Zero -> send_all([V | lists:reverse(Kept)], Next);
                      true -> send_all(lists:reverse([V | Kept]), Next)
                   end;
               Zero ->
                   Next ! V,
                   sort_actor(Radix, Next, Seen + 1, Kept, N);
               true ->
                   sort_actor(Radix, Next, Seen + 1, [V | Kept], N)
            end
    end.

send_all([V | Rest], Next) -> Next ! V, send_all(Rest, Next);
send_all([], _) -> ok.

validator(Seen, Sum, Prev, Errors, N, Main) ->
    receive
        V ->
            Errors1 = if V < Prev -> Errors + 1; true -> Errors end,
            if Seen + 1 =:= N -> io:format("~b, ~b, ~b~n", [N, Sum + V, Errors1]), Main ! done;
               true -> validator(Seen + 1, Sum + V, V, Errors1, N, Main)
            end
    end.

chain(0, Next, _) -> Next;
chain(Radix, Next, N) -> chain(Radix div 2, spawn(fun() -> sort_actor(Radix, Next, 0, [], N) end), N).

source(0, _, _, _) -> ok;
source(K, Seed, First, M) ->
    Seed1 = next_random(Seed),
    First ! Seed1 rem M,
    source(K - 1, Seed1, First, M).

main([NS, MS]) ->
    N = list_to_integer(NS),
    M = list_to_integer(MS),
    Main = self(),
    spawn(fun() ->
        First = chain(M div 2, spawn(fun() -> validator(0, 0, 0, 0, N, Main) end), N),
        source(N, 2048, First, M)
    end),
    receive done -> ok end,
    erlang:halt(0).
