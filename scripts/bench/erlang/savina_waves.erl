%% waves W K -- the same processes and messages as
%% scripts/bench/savina/waves.hum: W waves of K/2 pairs of processes, each
%% pair passing a number back and forth once; the first tells the driver
%% (the pinger learns its partner from the driver's message; Erlang
%% processes end when done). Prints the sum of the answers.
-module(savina_waves).
-export([main/1]).

ping(Driver) ->
    receive {go, N, Partner} -> Partner ! {ping, N}, receive {pong, M} -> Driver ! M end end.

pong(Partner) -> receive {ping, N} -> Partner ! {pong, N * 2} end.

make_pairs(0, _) -> ok;
make_pairs(K, Base) ->
    Driver = self(),
    A = spawn(fun() -> ping(Driver) end),
    B = spawn(fun() -> pong(A) end),
    A ! {go, Base + K, B},
    make_pairs(K - 1, Base).

driver(Wave, 1, Sum, W, K) ->
    receive
        M when Wave =:= W -> io:format("~b~n", [Sum + M]);
        M -> make_pairs(K div 2, Wave * K), driver(Wave + 1, K div 2, Sum + M, W, K)
    end;
driver(Wave, Left, Sum, W, K) ->
    receive M -> driver(Wave, Left - 1, Sum + M, W, K) end.

main([WS, KS]) ->
    W = list_to_integer(WS),
    K = list_to_integer(KS),
    Main = self(),
    spawn(fun() -> make_pairs(K div 2, 0), driver(1, K div 2, 0, W, K), Main ! done end),
    receive done -> ok end,
    erlang:halt(0).
