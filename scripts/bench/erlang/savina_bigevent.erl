%% bigevent N -- the same processes and messages as
%% scripts/bench/savina/bigevent.hum: one process spawns N processes in one
%% go and sends each a number; each answers a collector with its square.
-module(savina_bigevent).
-export([main/1]).

square(Collector) -> receive N -> Collector ! N * N end.

collector(1, Sum) -> receive X -> io:format("~b~n", [Sum + X]) end;
collector(Left, Sum) -> receive X -> collector(Left - 1, Sum + X) end.

fan_out(0, _) -> ok;
fan_out(I, Collector) ->
    spawn(fun() -> square(Collector) end) ! I,
    fan_out(I - 1, Collector).

main([NS]) ->
    N = list_to_integer(NS),
    Self = self(),
    Collector = spawn(fun() -> collector(N, 0), Self ! done end),
    spawn(fun() -> fan_out(N, Collector) end),
    receive done -> ok end,
    erlang:halt(0).
