%% Savina philosopher N M -- the same processes, messages and list of forks
%% as scripts/bench/savina/philosopher.hum. Prints the number of meals.
-module(savina_philosopher).
-export([main/1]).

set_fork([_ | Rest], 0, V) -> [V | Rest];
set_fork([F | Rest], I, V) -> [F | set_fork(Rest, I - 1, V)].
set_pair(Forks, Id, V, N) -> set_fork(set_fork(Forks, Id, V), (Id + 1) rem N, V).

nth([X | _], 0) -> X;
nth([_ | Rest], I) -> nth(Rest, I - 1).

arbitrator(Forks, Exited, Meals, N, Main) ->
    receive
        {hungry, Philosopher, Id} ->
            case nth(Forks, Id) orelse nth(Forks, (Id + 1) rem N) of
                true ->
                    Philosopher ! denied,
                    arbitrator(Forks, Exited, Meals, N, Main);
                false ->
                    Philosopher ! eat,
                    arbitrator(set_pair(Forks, Id, true, N), Exited, Meals, N, Main)
            end;
        {done, Id} ->
            arbitrator(set_pair(Forks, Id, false, N), Exited, Meals, N, Main);
        {exit, Rounds, _} when Exited + 1 =:= N ->
            io:format("~b~n", [Meals + Rounds]),
            Main ! done;
        {exit, Rounds, _} ->
            arbitrator(Forks, Exited + 1, Meals + Rounds, N, Main)
    end.

philosopher(Id, Arbitrator, Rounds, Denied, M) ->
    receive
        denied ->
            Arbitrator ! {hungry, self(), Id},
            philosopher(Id, Arbitrator, Rounds, Denied + 1, M);
        eat ->
            Arbitrator ! {done, Id},
            if Rounds + 1 =:= M -> Arbitrator ! {exit, M, Denied};
               true ->
                   self() ! start,
                   philosopher(Id, Arbitrator, Rounds + 1, Denied, M)
            end;
        start ->
            Arbitrator ! {hungry, self(), Id},
            philosopher(Id, Arbitrator, Rounds, Denied, M)
    end.

main([NS, MS]) ->
    N = list_to_integer(NS),
    M = list_to_integer(MS),
    Main = self(),
    spawn(fun() ->
        Arbitrator = spawn(fun() -> arbitrator([false || _ <- lists:seq(1, N)], 0, 0, N, Main) end),
        [spawn(fun() -> philosopher(I, Arbitrator, 0, 0, M) end) ! start || I <- lists:seq(0, N - 1)]
    end),
    receive done -> ok end,
    erlang:halt(0).
