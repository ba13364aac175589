%% nqueenk N W -- the N-queens count split over W worker processes
%% (the same algorithm and messages as scripts/bench/nqueenk.hum).
-module(nqueenk).
-export([main/1]).

safe(_, [], _) -> true;
safe(Q, [P | Rest], D) ->
    if Q =:= P -> false; Q =:= P - D -> false; Q =:= P + D -> false; true -> safe(Q, Rest, D + 1) end.
solutions(_, Depth, N) when Depth =:= N -> 1;
solutions(Board, Depth, N) -> try_(Board, Depth, 0, 0, N).
try_(_, _, Q, Acc, N) when Q =:= N -> Acc;
try_(Board, Depth, Q, Acc, N) ->
    case safe(Q, Board, 1) of
        true -> try_(Board, Depth, Q + 1, Acc + solutions([Q | Board], Depth + 1, N), N);
        false -> try_(Board, Depth, Q + 1, Acc, N)
    end.

worker(N) ->
    receive {Cust, Q} -> Cust ! solutions([Q], 1, N), worker(N) end.

master(1, Total) -> receive X -> io:format("~b~n", [Total + X]) end;
master(Left, Total) -> receive X -> master(Left - 1, Total + X) end.

deal(_, Q, _, _, N) when Q =:= N -> ok;
deal(Cust, Q, [W | Rest], All, N) -> W ! {Cust, Q}, deal(Cust, Q + 1, Rest, All, N);
deal(Cust, Q, [], All, N) -> deal(Cust, Q, All, All, N).

main([NS, WS]) ->
    N = list_to_integer(NS),
    W = list_to_integer(WS),
    Workers = [spawn(fun() -> worker(N) end) || _ <- lists:seq(1, W)],
    Self = self(),
    Master = spawn(fun() -> master(N, 0), Self ! done end),
    deal(Master, 0, Workers, Workers, N),
    receive done -> ok end,
    erlang:halt(0).
