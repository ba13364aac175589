%% Savina fib N -- the same processes and messages as
%% scripts/bench/savina/fib.hum. Prints fib(N).
-module(savina_fib).
-export([main/1]).

fib_actor(Parent) ->
    receive
        {request, N} when N < 3 -> Parent ! {response, 1};
        {request, N} ->
            Self = self(),
            spawn(fun() -> fib_actor(Self) end) ! {request, N - 1},
            spawn(fun() -> fib_actor(Self) end) ! {request, N - 2},
            receive {response, A} -> receive {response, B} -> Parent ! {response, A + B} end end
    end.

main([NS]) ->
    N = list_to_integer(NS),
    Main = self(),
    spawn(fun() -> fib_actor(Main) end) ! {request, N},
    receive {response, R} -> io:format("~b~n", [R]) end,
    erlang:halt(0).
