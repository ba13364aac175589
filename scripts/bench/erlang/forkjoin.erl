%% forkjoin N -- the same as scripts/bench/forkjoin.hum: N requests, each
%% forked to two worker processes spawned for it and joined by a third
%% (which knows the workers, as they know it); a counter adds the answers
%% (2i) and prints N(N-1). Erlang's processes end when done; Humus's actors
%% stay until the cycle collector frees them.
-module(forkjoin).
-export([main/1]).

main([NS]) ->
    N = list_to_integer(NS),
    Main = self(),
    Total = spawn(fun() -> counter(N, 0, Main) end),
    spawn(fun() -> drive(0, N, Total) end),
    receive {sum, S} -> io:format("~b~n", [S]) end,
    erlang:halt(0).

drive(N, N, _) -> ok;
drive(I, N, Total) ->
    serve(Total, I),
    drive(I + 1, N, Total).

serve(Cust, N) ->
    J = spawn(fun() -> receive {w, Ws} -> join(Cust, none, Ws) end end),
    W1 = spawn(fun() -> worker(J) end),
    W2 = spawn(fun() -> worker(J) end),
    J ! {w, {W1, W2}},
    W1 ! N,
    W2 ! N.

worker(J) -> receive N -> J ! {self(), N} end.

join(Cust, none, Ws) -> receive {_, N} -> join(Cust, N, Ws) end;
join(Cust, First, _Ws) -> receive {_, N} -> Cust ! First + N end.

counter(1, Sum, Main) -> receive R -> Main ! {sum, Sum + R} end;
counter(Left, Sum, Main) -> receive R -> counter(Left - 1, Sum + R, Main) end.
