%% stash C M -- request/reply through a server that stashes requests while
%% its worker is busy (the same algorithm and messages as scripts/bench/stash.hum).
-module(stash).
-export([main/1]).

work(N, N, Acc) -> Acc;
work(N, I, Acc) -> work(N, I + 1, (Acc + I * I) rem 1000).

worker() -> receive {Cust, N} -> Cust ! {result, work(N, 0, 0)}, worker() end.

rev([X | Rest], Acc) -> rev(Rest, [X | Acc]);
rev([], Acc) -> Acc.

open(W) ->
    receive {req, Cust, N} -> W ! {self(), N}, busy(W, Cust, [], []) end.

busy(W, Cust, Front, Back) ->
    receive
        {req, _, _} = Msg -> busy(W, Cust, Front, [Msg | Back]);
        {result, R} ->
            Cust ! R,
            case Front of
                [{req, Cust1, N} | Front1] -> W ! {self(), N}, busy(W, Cust1, Front1, Back);
                _ ->
                    case rev(Back, []) of
                        [{req, Cust1, N} | Front1] -> W ! {self(), N}, busy(W, Cust1, Front1, []);
                        _ -> open(W)
                    end
            end
    end.

client(Server, Done, J, Sum) ->
    receive
        Reply ->
            Sum1 = case Reply of start -> Sum; _ -> Sum + Reply end,
            if J =:= 0 -> Done ! Sum1;
               true -> Server ! {req, self(), 20 + J rem 50}, client(Server, Done, J - 1, Sum1)
            end
    end.

done(1, Total) -> receive N -> io:format("~b~n", [Total + N]) end;
done(Left, Total) -> receive N -> done(Left - 1, Total + N) end.

main([CS, MS]) ->
    C = list_to_integer(CS),
    M = list_to_integer(MS),
    W = spawn(fun worker/0),
    Server = spawn(fun() -> open(W) end),
    Self = self(),
    Done = spawn(fun() -> done(C, 0), Self ! finished end),
    [spawn(fun() -> client(Server, Done, M, 0) end) ! start || _ <- lists:seq(1, C)],
    receive finished -> ok end,
    erlang:halt(0).
