%% Savina recmatmul D T W -- the same processes, messages and lists of rows
%% as scripts/bench/savina/recmatmul.hum. Prints the sum of C[i][j] (i + j + 1).
-module(savina_recmatmul).
-export([main/1]).

slice(Xs, From, N) -> lists:sublist(lists:nthtail(From, Xs), N).

dot([X | Xs], [Y | Ys], Acc) -> dot(Xs, Ys, Acc + X * Y);
dot(_, _, Acc) -> Acc.

block_sum([A | Rest], I, BCols, Acc) -> block_sum(Rest, I + 1, BCols, row_sum(A, I, BCols, Acc));
block_sum([], _, _, Acc) -> Acc.

row_sum(A, I, [{J, B} | Rest], Acc) -> row_sum(A, I, Rest, Acc + dot(A, B, 0) * (I + J + 1));
row_sum(_, _, [], Acc) -> Acc.

number(Xs, J) -> lists:zip(lists:seq(J, J + length(Xs) - 1), Xs).

worker(Master, Rows, T) ->
    receive
        {work, SrA, ScA, SrB, ScB, SrC, ScC, Blocks, Dim} when Blocks > T ->
            H = Dim div 2,
            Q = Blocks div 4,
            Master ! {work, SrA, ScA, SrB, ScB, SrC, ScC, Q, H},
            Master ! {work, SrA, ScA + H, SrB + H, ScB, SrC, ScC, Q, H},
            Master ! {work, SrA, ScA, SrB, ScB + H, SrC, ScC + H, Q, H},
            Master ! {work, SrA, ScA + H, SrB + H, ScB + H, SrC, ScC + H, Q, H},
            Master ! {work, SrA + H, ScA, SrB, ScB, SrC + H, ScC, Q, H},
            Master ! {work, SrA + H, ScA + H, SrB + H, ScB, SrC + H, ScC, Q, H},
            Master ! {work, SrA + H, ScA, SrB, ScB + H, SrC + H, ScC + H, Q, H},
            Master ! {work, SrA + H, ScA + H, SrB + H, ScB + H, SrC + H, ScC + H, Q, H},
            Master ! {done, 0},
            worker(Master, Rows, T);
        {work, _, ScA, SrB, _, SrC, ScC, _, Dim} ->
            ARows = [slice(Row, ScA, Dim) || Row <- slice(Rows, SrC, Dim)],
            BCols = [slice(Col, SrB, Dim) || Col <- slice(Rows, ScC, Dim)],
            Master ! {done, block_sum(ARows, SrC, number(BCols, ScC), 0)},
            worker(Master, Rows, T);
        stop ->
            ok
    end.

master(Workers, Sent, Done, Sum, W) ->
    receive
        {work, _, _, _, _, SrC, ScC, _, _} = Msg ->
            lists:nth((SrC + ScC) rem W + 1, Workers) ! Msg,
            master(Workers, Sent + 1, Done, Sum, W);
        {done, S} when Done + 1 =:= Sent ->
            io:format("~b~n", [Sum + S]),
            [X ! stop || X <- Workers];
        {done, S} ->
            master(Workers, Sent, Done + 1, Sum + S, W)
    end.

main([DS, TS, WS]) ->
    [D, T, W] = [list_to_integer(X) || X <- [DS, TS, WS]],
    Main = self(),
    spawn(fun() ->
        %% A by rows and B by columns are both D rows of D copies of the row's number.
        Rows = [lists:duplicate(D, I) || I <- lists:seq(0, D - 1)],
        Master = self(),
        Workers = [spawn(fun() -> worker(Master, Rows, T) end) || _ <- lists:seq(1, W)],
        self() ! {work, 0, 0, 0, 0, 0, 0, D * D, D},
        master(Workers, 0, 0, 0, W),
        Main ! done
    end),
    receive done -> ok end,
    erlang:halt(0).
