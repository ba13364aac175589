%% Savina big W N -- the same processes, messages and neighbor tree as
%% scripts/bench/savina/big.hum. Prints the sums of the ping counts and of
%% the final random states.
-module(savina_big).
-export([main/1]).

next_random(X) -> (X * 1309 + 13849) band 65535.

tree([X | _], 1) -> X;
tree(Xs, N) ->
    H = N div 2,
    {L, R} = lists:split(H, Xs),
    {H, tree(L, H), tree(R, N - H)}.

lookup({H, Left, _}, I) when I < H -> lookup(Left, I);
lookup({H, _, Right}, I) -> lookup(Right, I - H);
lookup(Pid, _) -> Pid.

big_actor(Id, Sink, W, N) ->
    receive {neighbors, Neighbors} -> big_node(Id, Sink, Neighbors, 0, Id, W, N) end.

big_node(Id, Sink, Neighbors, Pings, Seed, W, N) ->
    receive
        {ping, Sender} ->
            lookup(Neighbors, Sender) ! {pong, Id},
            big_node(Id, Sink, Neighbors, Pings, Seed, W, N);
        {pong, _} when Pings =:= N ->
            Sink ! {exit, Pings, Seed},
            big_node(Id, Sink, Neighbors, Pings, Seed, W, N);
        {pong, _} ->
            Seed1 = next_random(Seed),
            lookup(Neighbors, Seed1 rem W) ! {ping, Id},
            big_node(Id, Sink, Neighbors, Pings + 1, Seed1, W, N);
        exit ->
            ok
    end.

sink(W) -> receive {neighbors, Actors} -> sink(Actors, W, 0, 0) end.
sink(Actors, 1, Pings, Seeds) ->
    receive {exit, P, S} -> io:format("~b, ~b~n", [Pings + P, Seeds + S]), [A ! exit || A <- Actors] end;
sink(Actors, Left, Pings, Seeds) ->
    receive {exit, P, S} -> sink(Actors, Left - 1, Pings + P, Seeds + S) end.

main([WS, NS]) ->
    W = list_to_integer(WS),
    N = list_to_integer(NS),
    Self = self(),
    Sink = spawn(fun() -> sink(W), Self ! done end),
    spawn(fun() ->
        Actors = [spawn(fun() -> big_actor(K, Sink, W, N) end) || K <- lists:seq(0, W - 1)],
        Sink ! {neighbors, Actors},
        Tree = tree(Actors, W),
        [A ! {neighbors, Tree} || A <- Actors],
        [A ! {pong, -1} || A <- Actors]
    end),
    receive done -> ok end,
    erlang:halt(0).
