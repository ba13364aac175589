%% Savina sor S -- the same processes, messages and fixed-point update as
%% scripts/bench/savina/sor.hum. Prints the sum of the final values.
-module(savina_sor).
-export([main/1]).

-define(ITER, 100).

next_random(X) -> (X * 1309 + 13849) band 65535.

waiting(Color, Value, Runner, Pending) ->
    receive
        {start, Neighbors, N} when Color =:= 1 ->
            [X ! {value, Value} || X <- Neighbors],
            absorb(lists:reverse(Pending), Value, 1, 0, 0, Neighbors, N, Runner);
        {start, Neighbors, N} ->
            absorb(lists:reverse(Pending), Value, 0, 0, 0, Neighbors, N, Runner);
        {value, V} ->
            waiting(Color, Value, Runner, [V | Pending])
    end.

cell(Value, Iter, Received, Sum, Neighbors, N, Runner) ->
    receive {value, V} -> absorb([V], Value, Iter, Received, Sum, Neighbors, N, Runner) end.

absorb([V | Rest], Value, Iter, Received, Sum, Neighbors, N, Runner) when Received + 1 =:= N ->
    Value1 = (5 * (Sum + V) - 4 * Value) bsr 4,
    [X ! {value, Value1} || X <- Neighbors],
    if Iter + 1 =:= ?ITER -> Runner ! Value1;
       true -> absorb(Rest, Value1, Iter + 1, 0, 0, Neighbors, N, Runner)
    end;
absorb([V | Rest], Value, Iter, Received, Sum, Neighbors, N, Runner) ->
    absorb(Rest, Value, Iter, Received + 1, Sum + V, Neighbors, N, Runner);
absorb([], Value, Iter, Received, Sum, Neighbors, N, Runner) ->
    cell(Value, Iter, Received, Sum, Neighbors, N, Runner).

runner(1, Total) -> receive V -> io:format("~b~n", [Total + V]) end;
runner(Left, Total) -> receive V -> runner(Left - 1, Total + V) end.

make_row(_, S, Seed, _, S, Acc) -> {lists:reverse(Acc), Seed};
make_row(I, J, Seed, Runner, S, Acc) ->
    Seed1 = next_random(Seed),
    Color = (I + J + 1) rem 2,
    Value = 1073741824 div (Seed1 + 1),
    make_row(I, J + 1, Seed1, Runner, S, [spawn(fun() -> waiting(Color, Value, Runner, []) end) | Acc]).

make_rows(S, _, _, S, Acc) -> lists:reverse(Acc);
make_rows(I, Seed, Runner, S, Acc) ->
    {Row, Seed1} = make_row(I, 0, Seed, Runner, S, []),
    make_rows(I + 1, Seed1, Runner, S, [Row | Acc]).

head_onto([X | _], Acc) -> [X | Acc];
head_onto(_, Acc) -> Acc.
rest_of([_ | Rest]) -> Rest;
rest_of(_) -> [].

start_row(Up, [C | Rest], Down, Left) ->
    Above = head_onto(Up, []),
    Neighbors = head_onto(Rest, head_onto(Down, case Left of none -> Above; _ -> [Left | Above] end)),
    C ! {start, Neighbors, length(Neighbors)},
    start_row(rest_of(Up), Rest, rest_of(Down), C);
start_row(_, [], _, _) -> ok.

start_rows(Up, [Row | Rest]) ->
    start_row(Up, Row, case Rest of [Down | _] -> Down; _ -> [] end, none),
    start_rows(Row, Rest);
start_rows(_, []) -> ok.

main([SS]) ->
    S = list_to_integer(SS),
    Main = self(),
    spawn(fun() ->
        Runner = spawn(fun() -> runner(S * S, 0), Main ! done end),
        start_rows([], make_rows(0, 10101010, Runner, S, []))
    end),
    receive done -> ok end,
    erlang:halt(0).
