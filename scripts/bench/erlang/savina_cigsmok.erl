%% Savina cigsmok R S -- the same processes, messages and busy waits as
%% scripts/bench/savina/cigsmok.hum. Prints the rounds and the sum of the
%% smokers' busy waits' results.
-module(savina_cigsmok).
-export([main/1]).

next_random(X) -> (X * 1309 + 13849) band 65535.
spin(0, _, Acc) -> Acc;
spin(K, X, Acc) -> X1 = next_random(X), spin(K - 1, X1, Acc + X1).

nth([X | _], 0) -> X;
nth([_ | Rest], I) -> nth(Rest, I - 1).

arbiter(Smokers, Seed, Rounds, {R, S} = Cfg) ->
    receive
        start -> notify(Smokers, Seed, Rounds, Cfg);
        started_smoking when Rounds + 1 =:= R ->
            [X ! exit || X <- Smokers],
            total(Rounds + 1, S, 0);
        started_smoking -> notify(Smokers, Seed, Rounds + 1, Cfg)
    end.

notify(Smokers, Seed, Rounds, {_, S} = Cfg) ->
    Seed1 = next_random(Seed),
    Seed2 = next_random(Seed1),
    nth(Smokers, Seed1 rem S) ! {start_smoking, Seed2 rem 1000 + 10},
    arbiter(Smokers, Seed2, Rounds, Cfg).

total(Rounds, 1, Sum) -> receive N -> io:format("~b, ~b~n", [Rounds, Sum + N]) end;
total(Rounds, Left, Sum) -> receive N -> total(Rounds, Left - 1, Sum + N) end.

smoker(Arbiter, Work) ->
    receive
        {start_smoking, Time} ->
            Arbiter ! started_smoking,
            smoker(Arbiter, Work + spin(Time, Time, 0));
        exit ->
            Arbiter ! Work
    end.

main([RS, SS]) ->
    R = list_to_integer(RS),
    S = list_to_integer(SS),
    Main = self(),
    spawn(fun() ->
        Arbiter = self(),
        Smokers = [spawn(fun() -> smoker(Arbiter, 0) end) || _ <- lists:seq(1, S)],
        self() ! start,
        arbiter(Smokers, R * S, 0, {R, S}),
        Main ! done
    end),
    receive done -> ok end,
    erlang:halt(0).
