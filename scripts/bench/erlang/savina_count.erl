%% Savina count N -- the same processes and messages as
%% scripts/bench/savina/count.hum: N increments, then a retrieve; the
%% producer prints the count.
-module(savina_count).
-export([main/1]).

main([NS]) ->
    N = list_to_integer(NS),
    Main = self(),
    Counter = spawn(fun() -> counter(0) end),
    spawn(fun() -> producer(Counter, N, Main) end) ! increment,
    receive done -> ok end,
    erlang:halt(0).

counter(Count) ->
    receive
        increment -> counter(Count + 1);
        {retrieve, Cust} -> Cust ! {result, Count}
    end.

producer(Counter, N, Main) ->
    receive
        increment ->
            produce(Counter, 0, N),
            producer(Counter, N, Main);
        {result, Count} ->
            io:format("~b~n", [Count]),
            Main ! done
    end.

produce(Counter, N, N) -> Counter ! {retrieve, self()};
produce(Counter, I, N) -> Counter ! increment, produce(Counter, I + 1, N).
