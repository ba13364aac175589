%% Savina trapezoid N W -- the same processes, messages and fixed-point
%% arithmetic (scale 2^20, rounding down) as
%% scripts/bench/savina/trapezoid.hum. Prints the total area (times 2^20).
-module(savina_trapezoid).
-export([main/1]).

-define(ONE, 1048576).
-define(PI, 3294199).
-define(TWO_PI, 6588397).

%% Floor division (Humus's div; Erlang's div truncates toward zero).
fdiv(A, B) when A >= 0 -> A div B;
fdiv(A, B) -> -((B - 1 - A) div B).

sin_series(_, _, 8, Acc) -> Acc;
sin_series(T2, Term, K, Acc) ->
    Term1 = -fdiv(fdiv(Term * T2, 1048576), (K + K + 2) * (K + K + 3)),
    sin_series(T2, Term1, K + 1, Acc + Term1).
fsin(X) ->
    R = X rem ?TWO_PI,
    R1 = if R < 0 -> R + ?TWO_PI; true -> R end,
    T = if R1 > ?PI -> R1 - ?TWO_PI; true -> R1 end,
    sin_series(fdiv(T * T, 1048576), T, 0, T).

exp_series(_, 0, _, Acc) -> Acc;
exp_series(A, Term, K, Acc) ->
    Term1 = Term * A div 1048576 div K,
    exp_series(A, Term1, K + 1, Acc + Term1).
fexp(A) -> exp_series(A, ?ONE, 1, ?ONE).

isqrt(N, Y) ->
    Y1 = (Y + N div Y) div 2,
    if Y1 < Y -> isqrt(N, Y1); true -> Y end.
fsqrt(X) -> isqrt(X * ?ONE, 8388608).

fx(X) ->
    X3 = (X * X div 1048576) * X div 1048576,
    C = fdiv(fsin(X3 - ?ONE) * ?ONE, X + ?ONE),
    D = fsqrt(?ONE + fexp(fsqrt(X + X))),
    fdiv(C * D, 1048576).

x(I, N) -> ?ONE + 4 * ?ONE * I div N.

area(End, End, _, Acc) -> Acc;
area(I, End, N, Acc) ->
    LX = x(I, N),
    RX = x(I + 1, N),
    area(I + 1, End, N, Acc + (fx(LX) + fx(RX)) * (RX - LX)).

worker(Master, N) -> receive {First, End} -> Master ! area(First, End, N, 0) end.

master(1, Sum) -> receive A -> io:format("~b~n", [fdiv(Sum + A, 2097152)]) end;
master(Left, Sum) -> receive A -> master(Left - 1, Sum + A) end.

main([NS, WS]) ->
    N = list_to_integer(NS),
    W = list_to_integer(WS),
    Self = self(),
    Master = spawn(fun() -> master(W, 0), Self ! done end),
    [spawn(fun() -> worker(Master, N) end) ! {I * N div W, (I + 1) * N div W} || I <- lists:seq(0, W - 1)],
    receive done -> ok end,
    erlang:halt(0).
