%% Savina apsp N B -- the same processes, messages, lists of rows and
%% buffering of the next step's blocks as scripts/bench/savina/apsp.hum.
%% Prints the sum of all shortest distances.
-module(savina_apsp).
-export([main/1]).

-define(MAXW, 100).

next_random(X) -> (X * 1309 + 13849) band 65535.

upper(0, Seed, Acc) -> {lists:reverse(Acc), Seed};
upper(K, Seed, Acc) -> Seed1 = next_random(Seed), upper(K - 1, Seed1, [Seed1 rem ?MAXW + 1 | Acc]).

matrix(N, N, _, _, Acc) -> lists:reverse(Acc);
matrix(I, N, Seed, Pending, Acc) ->
    {Up, Seed1} = upper(N - I - 1, Seed, []),
    matrix(I + 1, N, Seed1, [T || [_ | T] <- Pending] ++ [Up], [[H || [H | _] <- Pending] ++ [0 | Up] | Acc]).

slice(Xs, From, N) -> lists:sublist(lists:nthtail(From, Xs), N).
block(M, BI, BJ, B) -> [slice(Row, BJ * B, B) || Row <- slice(M, BI * B, B)].

relax_row([X | Row], D, [P | PivotRow], Acc) -> relax_row(Row, D, PivotRow, [min(X, D + P) | Acc]);
relax_row(_, _, _, Acc) -> lists:reverse(Acc).

relax([Row | Rows], [D | Column], PivotRow, Acc) -> relax(Rows, Column, PivotRow, [relax_row(Row, D, PivotRow, []) | Acc]);
relax(_, _, _, Acc) -> lists:reverse(Acc).

total(Rows) -> lists:sum([lists:sum(Row) || Row <- Rows]).

find(Me, Me, Data, _) -> Data;
find(Id, Me, _, [{Id, D} | _]) when Id =/= Me -> D;
find(Id, Me, Data, [_ | Rest]) -> find(Id, Me, Data, Rest).

-record(c, {n, b, nb, bi, bj, neighbors, collector}).

fw_actor(C, K, Data, Now, NNow, Next, NNext) ->
    receive
        {data, K, Id, D} when NNow + 1 =:= 2 * (C#c.nb - 1) ->
            step(C, K, Data, [{Id, D} | Now], Next, NNext);
        {data, K, Id, D} ->
            fw_actor(C, K, Data, [{Id, D} | Now], NNow + 1, Next, NNext);
        {data, _, Id, D} ->
            fw_actor(C, K, Data, Now, NNow, [{Id, D} | Next], NNext + 1)
    end.

step(#c{n = N, b = B, nb = NB, bi = BI, bj = BJ} = C, K, Data, Blocks, Next, NNext) ->
    P = K + 1,
    PB = P div B,
    PO = P rem B,
    Me = BI * NB + BJ,
    Column = [lists:nth(PO + 1, Row) || Row <- find(BI * NB + PB, Me, Data, Blocks)],
    Data1 = relax(Data, Column, lists:nth(PO + 1, find(PB * NB + BJ, Me, Data, Blocks)), []),
    [X ! {data, P, Me, Data1} || X <- C#c.neighbors],
    if P =:= N - 1 -> C#c.collector ! total(Data1);
       NNext =:= 2 * (NB - 1) -> step(C, P, Data1, Next, [], 0);
       true -> fw_actor(C, P, Data1, Next, NNext, [], 0)
    end.

waiting(C, Data, Early, NEarly) ->
    receive
        {neighbors, Neighbors} ->
            C1 = C#c{neighbors = Neighbors},
            [X ! {data, -1, C#c.bi * C#c.nb + C#c.bj, Data} || X <- Neighbors],
            if NEarly =:= 2 * (C#c.nb - 1) -> step(C1, -1, Data, Early, [], 0);
               true -> fw_actor(C1, -1, Data, Early, NEarly, [], 0)
            end;
        {data, _, Id, D} ->
            waiting(C, Data, [{Id, D} | Early], NEarly + 1)
    end.

collector(1, Sum) -> receive S -> io:format("~b~n", [Sum + S]) end;
collector(Left, Sum) -> receive S -> collector(Left - 1, Sum + S) end.

others(Xs, Skip) -> [X || {I, X} <- lists:zip(lists:seq(0, length(Xs) - 1), Xs), I =/= Skip].

main([NS, BS]) ->
    N = list_to_integer(NS),
    B = list_to_integer(BS),
    NB = N div B,
    Main = self(),
    spawn(fun() ->
        Collector = spawn(fun() -> collector(NB * NB, 0), Main ! done end),
        M = matrix(0, N, N, [], []),
        Grid = [[spawn(fun() -> waiting(#c{n = N, b = B, nb = NB, bi = BI, bj = BJ, collector = Collector},
                                        block(M, BI, BJ, B), [], 0) end)
                 || BJ <- lists:seq(0, NB - 1)] || BI <- lists:seq(0, NB - 1)],
        [begin
             Row = lists:nth(BI + 1, Grid),
             Column = [lists:nth(BJ + 1, R) || R <- Grid],
             lists:nth(BJ + 1, Row) ! {neighbors, others(Column, BI) ++ others(Row, BJ)}
         end || BI <- lists:seq(0, NB - 1), BJ <- lists:seq(0, NB - 1)]
    end),
    receive done -> ok end,
    erlang:halt(0).
