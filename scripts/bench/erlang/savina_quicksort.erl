%% Savina quicksort N T -- the same processes, messages and list algorithm
%% as scripts/bench/savina/quicksort.hum. Prints the length, the number of
%% values smaller than the one before and a hash of the sorted list.
-module(savina_quicksort).
-export([main/1]).

next_random(X) -> (X * 1309 + 13849) band 65535.

below([X | Rest], P, Acc) when X < P -> below(Rest, P, [X | Acc]);
below([_ | Rest], P, Acc) -> below(Rest, P, Acc);
below([], _, Acc) -> Acc.
above([X | Rest], P, Acc) when X > P -> above(Rest, P, [X | Acc]);
above([_ | Rest], P, Acc) -> above(Rest, P, Acc);
above([], _, Acc) -> Acc.
equal([X | Rest], P, Acc) when X =:= P -> equal(Rest, P, [X | Acc]);
equal([_ | Rest], P, Acc) -> equal(Rest, P, Acc);
equal([], _, Acc) -> Acc.

quicksort_seq(Xs) ->
    N = length(Xs),
    if N < 2 -> Xs;
       true ->
           P = lists:nth(N div 2 + 1, Xs),
           quicksort_seq(below(Xs, P, [])) ++ (equal(Xs, P, []) ++ quicksort_seq(above(Xs, P, [])))
    end.

sorter(Parent, Position, T) ->
    receive
        {sort, Xs} ->
            N = length(Xs),
            if N < T -> Parent ! {result, quicksort_seq(Xs), Position};
               true ->
                   P = lists:nth(N div 2 + 1, Xs),
                   Self = self(),
                   spawn(fun() -> sorter(Self, left, T) end) ! {sort, below(Xs, P, [])},
                   spawn(fun() -> sorter(Self, right, T) end) ! {sort, above(Xs, P, [])},
                   joiner(Parent, Position, equal(Xs, P, []), 1)
            end
    end.

joiner(Parent, Position, Result, Fragments) ->
    receive
        {result, Xs, From} ->
            Result1 = case From of left -> Xs ++ Result; right -> Result ++ Xs end,
            if Fragments =:= 2 -> Parent ! {result, Result1, Position};
               true -> joiner(Parent, Position, Result1, Fragments + 1)
            end
    end.

check([X | Rest], Prev, Errors, Hash) ->
    check(Rest, X, if X < Prev -> Errors + 1; true -> Errors end, (Hash * 31 + X) rem 1000000007);
check([], _, Errors, Hash) -> {Errors, Hash}.

values(0, _, Acc) -> Acc;
values(K, Seed, Acc) -> Seed1 = next_random(Seed), values(K - 1, Seed1, [Seed1 | Acc]).

main([NS, TS]) ->
    N = list_to_integer(NS),
    T = list_to_integer(TS),
    Main = self(),
    spawn(fun() ->
        Root = self(),
        spawn(fun() -> sorter(Root, root, T) end) ! {sort, lists:reverse(values(N, 1024, []))},
        receive
            {result, Xs, _} ->
                {Errors, Hash} = check(Xs, 0, 0, 0),
                io:format("~b, ~b, ~b~n", [length(Xs), Errors, Hash])
        end,
        Main ! done
    end),
    receive done -> ok end,
    erlang:halt(0).
