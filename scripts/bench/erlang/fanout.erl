%% fanout K -- the same as scripts/bench/fanout.hum: a producer sends 1..K
%% round three summing processes, then asks each for its sum; the three
%% sums are added and printed (K(K+1)/2).
-module(fanout).
-export([main/1]).

main([KS]) ->
    K = list_to_integer(KS),
    Main = self(),
    Cs = [spawn(fun() -> counter(0) end) || _ <- [1, 2, 3]],
    spawn(fun() -> produce(Cs, 1, K, Main) end),
    Total = lists:sum([receive {sum, S} -> S end || _ <- Cs]),
    io:format("~b~n", [Total]),
    erlang:halt(0).

produce(Cs, I, K, Main) when I > K ->
    [C ! {get, Main} || C <- Cs];
produce([C1, C2, C3] = Cs, I, K, Main) ->
    C1 ! I,
    C2 ! I + 1,
    C3 ! I + 2,
    produce(Cs, I + 3, K, Main).

counter(Sum) ->
    receive
        X when is_integer(X) -> counter(Sum + X);
        {get, From} -> From ! {sum, Sum}, counter(Sum)
    end.
