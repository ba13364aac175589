%% The distributed-Erlang twin of the cluster benchmarks
%% (scripts/bench/cluster/run): two nodes started with `erl -sname` on one
%% machine, the same traffic as rtt_*.hum and oneway_*.hum.
%%
%%   erl -sname a -noshell -run dist_bench rtt_server
%%   erl -sname b -noshell -run dist_bench rtt_client a@HOST K     -> "rtt K MS"
%%   erl -sname b -noshell -run dist_bench rtt_many a@HOST K W     -> "rtt K MS"
%%   erl -sname a -noshell -run dist_bench sink K                  -> "oneway K MS"
%%   erl -sname b -noshell -run dist_bench source a@HOST K
%%
%% Servers print "ready" once registered. The sink times from the first
%% message to the last, and tells the source when it has them all.
-module(dist_bench).
-export([rtt_server/0, rtt_client/1, rtt_many/1, sink/1, source/1]).

rtt_server() ->
    register(pong, self()),
    ready(),
    pong_loop().

pong_loop() ->
    receive
        {From, N} -> From ! N, pong_loop();
        quit -> erlang:halt(0)
    end.

rtt_client([Node, KS | _]) ->
    K = list_to_integer(KS),
    Pong = {pong, list_to_atom(Node)},
    T0 = erlang:monotonic_time(),
    ping(Pong, 1, K),
    io:format("rtt ~b ~b~n", [K, ms(erlang:monotonic_time() - T0)]),
    Pong ! quit,
    timer:sleep(100),
    erlang:halt(0).

%% W processes at once, each making K/W round trips.
rtt_many([Node, KS, WS]) ->
    K = list_to_integer(KS),
    W = list_to_integer(WS),
    Pong = {pong, list_to_atom(Node)},
    Self = self(),
    T0 = erlang:monotonic_time(),
    [spawn(fun() -> ping(Pong, 1, K div W), Self ! done end) || _ <- lists:seq(1, W)],
    [receive done -> ok end || _ <- lists:seq(1, W)],
    io:format("rtt ~b ~b~n", [K, ms(erlang:monotonic_time() - T0)]),
    Pong ! quit,
    timer:sleep(100),
    erlang:halt(0).

ping(_Pong, N, K) when N > K -> ok;
ping(Pong, N, K) ->
    Pong ! {self(), N},
    receive N -> ping(Pong, N + 1, K) end.

sink([KS]) ->
    K = list_to_integer(KS),
    register(sink, self()),
    ready(),
    receive
        {From, 1} ->
            T0 = erlang:monotonic_time(),
            count(2, K),
            io:format("oneway ~b ~b~n", [K, ms(erlang:monotonic_time() - T0)]),
            From ! done,
            timer:sleep(100),
            erlang:halt(0)
    end.

count(N, K) when N > K -> ok;
count(N, K) -> receive _ -> count(N + 1, K) end.

source([Node, KS | _]) ->
    K = list_to_integer(KS),
    Sink = {sink, list_to_atom(Node)},
    Sink ! {self(), 1},
    send(Sink, 2, K),
    receive done -> erlang:halt(0) end.

send(_Sink, N, K) when N > K -> ok;
send(Sink, N, K) -> Sink ! N, send(Sink, N + 1, K).

ready() -> io:format("ready~n").

ms(T) -> erlang:convert_time_unit(T, native, millisecond).
