%% Savina piprecision P W -- the same processes, messages and integer
%% arithmetic as scripts/bench/savina/piprecision.hum. Prints the first 21
%% digits of pi and the sum modulo 10^9 + 7.
-module(savina_piprecision).
-export([main/1]).

pow(_, 0) -> 1;
pow(B, E) ->
    H = pow(B, E div 2),
    case E rem 2 of 0 -> H * H; 1 -> B * (H * H) end.

bbp_term(K, One) ->
    K8 = 8 * K,
    (4 * One div (K8 + 1) - 2 * One div (K8 + 4) - One div (K8 + 5) - One div (K8 + 6)) div pow(16, K).

worker(Master, Id, One) ->
    receive
        stop -> ok;
        K -> Master ! {result, bbp_term(K, One), Id}, worker(Master, Id, One)
    end.

master(Workers, Requested, Received, Sum, Stop, P) ->
    receive
        {result, Term, Id} ->
            Stop1 = Stop orelse Term =< 1,
            if Stop1 andalso Received + 1 =:= Requested ->
                   S = Sum + Term,
                   io:format("~b, ~b~n", [S div pow(10, P - 20), S rem 1000000007]),
                   [X ! stop || X <- Workers];
               Stop1 ->
                   master(Workers, Requested, Received + 1, Sum + Term, true, P);
               true ->
                   lists:nth(Id + 1, Workers) ! Requested,
                   master(Workers, Requested + 1, Received + 1, Sum + Term, false, P)
            end
    end.

deal(_, N, N, _) -> ok;
deal(Workers, K, N, W) -> lists:nth(K rem W + 1, Workers) ! K, deal(Workers, K + 1, N, W).

main([PS, WS]) ->
    P = list_to_integer(PS),
    W = list_to_integer(WS),
    Main = self(),
    spawn(fun() ->
        One = pow(10, P),
        Master = self(),
        Workers = [spawn(fun() -> worker(Master, I, One) end) || I <- lists:seq(0, W - 1)],
        First = min(P, 10 * W),
        deal(Workers, 0, First, W),
        master(Workers, First, 0, 0, false, P),
        Main ! done
    end),
    receive done -> ok end,
    erlang:halt(0).
