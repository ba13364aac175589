%% Savina fjcreate N -- the same processes, messages and fixed-point
%% computation as scripts/bench/savina/fjcreate.hum: N processes spawned one
%% after the other, each sent one message, each answering a collector.
-module(savina_fjcreate).
-export([main/1]).

-define(THETA, 39007191).
-define(PI, 3294199).
-define(TWO_PI, 6588397).

%% Floor division (Humus's div; Erlang's div truncates toward zero).
fdiv(A, B) when A >= 0 -> A div B;
fdiv(A, B) -> -((B - 1 - A) div B).

sin_series(_, _, 8, Acc) -> Acc;
sin_series(T2, Term, K, Acc) ->
    Term1 = -fdiv(fdiv(Term * T2, 1048576), (K + K + 2) * (K + K + 3)),
    sin_series(T2, Term1, K + 1, Acc + Term1).

perform_computation(Theta) ->
    R = Theta rem ?TWO_PI,
    T = if R > ?PI -> R - ?TWO_PI; true -> R end,
    S = sin_series(fdiv(T * T, 1048576), T, 0, T),
    Res = fdiv(S * S, 1048576),
    true = Res > 0,
    Res.

fj_actor(Collector) ->
    receive go -> Collector ! perform_computation(?THETA) end.

collector(1, Sum) -> receive X -> io:format("~b~n", [Sum + X]) end;
collector(Left, Sum) -> receive X -> collector(Left - 1, Sum + X) end.

drive(0, _) -> ok;
drive(I, Collector) ->
    spawn(fun() -> fj_actor(Collector) end) ! go,
    drive(I - 1, Collector).

main([NS]) ->
    N = list_to_integer(NS),
    Self = self(),
    Collector = spawn(fun() -> collector(N, 0), Self ! done end),
    drive(N, Collector),
    receive done -> ok end,
    erlang:halt(0).
