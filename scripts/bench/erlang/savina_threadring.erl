%% Savina threadring N R -- the same processes and messages as
%% scripts/bench/savina/threadring.hum. Prints the number of pings, R + 1.
-module(savina_threadring).
-export([main/1]).

ring_actor(N, Main) -> receive {data, Next} -> ring_node(Next, 0, N, Main) end.

ring_node(Next, Pings, N, Main) ->
    receive
        {ping, 0} -> Next ! {exit, N - 1, Pings + 1};
        {ping, Left} -> Next ! {ping, Left - 1}, ring_node(Next, Pings + 1, N, Main);
        {exit, 1, Total} -> io:format("~b~n", [Total + Pings]), Main ! done;
        {exit, Left, Total} -> Next ! {exit, Left - 1, Total + Pings}
    end.

link(First, [A]) -> A ! {data, First};
link(First, [A | Rest = [B | _]]) -> A ! {data, B}, link(First, Rest).

main([NS, RS]) ->
    N = list_to_integer(NS),
    R = list_to_integer(RS),
    Main = self(),
    Actors = [spawn(fun() -> ring_actor(N, Main) end) || _ <- lists:seq(1, N)],
    [First | _] = Actors,
    link(First, Actors),
    First ! {ping, R},
    receive done -> ok end,
    erlang:halt(0).
