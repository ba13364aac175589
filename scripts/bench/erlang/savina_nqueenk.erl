%% Savina nqueenk N T W -- the same processes, messages and pairwise board
%% check as scripts/bench/savina/nqueenk.hum. Prints the number of solutions.
-module(savina_nqueenk).
-export([main/1]).

safe(Q, [P | Rest], D) ->
    if Q =:= P -> false; Q =:= P - D -> false; Q =:= P + D -> false; true -> safe(Q, Rest, D + 1) end;
safe(_, [], _) -> true.

valid([Q | Rest]) -> safe(Q, Rest, 1) andalso valid(Rest);
valid([]) -> true.

search(Master, _, N, N) -> Master ! result;
search(Master, Board, Depth, N) -> search_columns(Master, Board, Depth, 0, N).

search_columns(_, _, _, N, N) -> ok;
search_columns(Master, Board, Depth, I, N) ->
    case valid([I | Board]) of
        true -> search(Master, [I | Board], Depth + 1, N);
        false -> ok
    end,
    search_columns(Master, Board, Depth, I + 1, N).

split(_, _, _, N, N) -> ok;
split(Master, Board, Depth, I, N) ->
    case valid([I | Board]) of
        true -> Master ! {work, [I | Board], Depth + 1};
        false -> ok
    end,
    split(Master, Board, Depth, I + 1, N).

worker(Master, N, T) ->
    receive
        {work, Board, Depth} ->
            if Depth =:= N -> Master ! result;
               Depth < T -> split(Master, Board, Depth, 0, N);
               true -> search_columns(Master, Board, Depth, 0, N)
            end,
            Master ! done,
            worker(Master, N, T);
        stop ->
            ok
    end.

master(Next, Workers, Sent, Done, Results) ->
    receive
        {work, _, _} = Msg ->
            case Next of
                [W | Rest] -> W ! Msg, master(Rest, Workers, Sent + 1, Done, Results);
                [] -> hd(Workers) ! Msg, master(tl(Workers), Workers, Sent + 1, Done, Results)
            end;
        result ->
            master(Next, Workers, Sent, Done, Results + 1);
        done when Done + 1 =:= Sent ->
            io:format("~b~n", [Results]),
            [X ! stop || X <- Workers];
        done ->
            master(Next, Workers, Sent, Done + 1, Results)
    end.

main([NS, TS, WS]) ->
    [N, T, W] = [list_to_integer(X) || X <- [NS, TS, WS]],
    Main = self(),
    spawn(fun() ->
        Master = self(),
        Workers = [spawn(fun() -> worker(Master, N, T) end) || _ <- lists:seq(1, W)],
        self() ! {work, [], 0},
        master(Workers, Workers, 0, 0, 0),
        Main ! done
    end),
    receive done -> ok end,
    erlang:halt(0).
