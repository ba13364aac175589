%% nqueens N -- the N-queens count in one process, boards as lists
%% (the same algorithm as scripts/bench/nqueens.hum). stdout: the count.
-module(nqueens).
-export([main/1, solutions/3]).

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

main([NS]) ->
    N = list_to_integer(NS),
    Self = self(),
    spawn(fun() -> Self ! {result, solutions([], 0, N)} end),
    receive {result, R} -> io:format("~b~n", [R]) end,
    erlang:halt(0).
