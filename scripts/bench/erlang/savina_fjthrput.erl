%% Savina fjthrput N A -- the same processes, messages and fixed-point
%% computation as scripts/bench/savina/fjthrput.hum (sin(37.2)^2 at scale
%% 2^20, floor division). Prints the total of the workers' sums.
-module(savina_fjthrput).
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

worker(Left, Acc, Collector) ->
    receive
        go ->
            Acc1 = Acc + perform_computation(?THETA),
            if Left =:= 1 -> Collector ! Acc1;
               true -> worker(Left - 1, Acc1, Collector)
            end
    end.

collector(1, Sum) -> receive X -> io:format("~b~n", [Sum + X]) end;
collector(Left, Sum) -> receive X -> collector(Left - 1, Sum + X) end.

rounds(0, _) -> ok;
rounds(M, Workers) -> [W ! go || W <- Workers], rounds(M - 1, Workers).

main([NS, AS]) ->
    N = list_to_integer(NS),
    A = list_to_integer(AS),
    Self = self(),
    Collector = spawn(fun() -> collector(A, 0), Self ! done end),
    Workers = [spawn(fun() -> worker(N, 0, Collector) end) || _ <- lists:seq(1, A)],
    rounds(N, Workers),
    receive done -> ok end,
    erlang:halt(0).
