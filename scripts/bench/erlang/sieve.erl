%% sieve N -- the prime sieve as a pipeline of filter processes
%% (the same algorithm and messages as scripts/bench/sieve.hum).
-module(sieve).
-export([main/1]).

filter(P, Next) ->
    receive
        done -> Next ! done;
        Msg -> if Msg rem P =:= 0 -> ok; true -> Next ! Msg end, filter(P, Next)
    end.

tail_beh(Count, Main) ->
    receive
        done -> io:format("~b~n", [Count]), Main ! finished;
        Msg -> Next = spawn(fun() -> tail_beh(Count + 1, Main) end), filter(Msg, Next)
    end.

generate(First, I, N) when I > N -> First ! done;
generate(First, I, N) -> First ! I, generate(First, I + 1, N).

main([NS]) ->
    N = list_to_integer(NS),
    Main = self(),
    First = spawn(fun() -> tail_beh(0, Main) end),
    spawn(fun() -> generate(First, 2, N) end),
    receive finished -> ok end,
    erlang:halt(0).
