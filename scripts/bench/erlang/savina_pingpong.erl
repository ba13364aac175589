%% Savina pingpong N -- the same actors and messages as
%% scripts/bench/savina/pingpong.hum: N pings, each answered, and a ping to
%% itself before each new one. Prints the number of pings pong answered.
-module(savina_pingpong).
-export([main/1]).

main([NS]) ->
    N = list_to_integer(NS),
    Main = self(),
    Pong = spawn(fun() -> pong(0, Main) end),
    spawn(fun() -> ping(N, Pong) end) ! start,
    receive {done, Count} -> io:format("~b~n", [Count]) end,
    erlang:halt(0).

pong(Count, Main) ->
    receive
        {send_ping, Ping} -> Ping ! {send_pong, self()}, pong(Count + 1, Main);
        stop -> Main ! {done, Count}
    end.

ping(Left, Pong) ->
    receive
        {send_pong, _} when Left =:= 0 -> Pong ! stop;
        {send_pong, _} -> self() ! ping, ping(Left, Pong);
        _ -> Pong ! {send_ping, self()}, ping(Left - 1, Pong)
    end.
