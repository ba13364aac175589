%% Savina logmap T S -- the same processes, messages and fixed-point
%% arithmetic (scale 2^28) and the same stash, a queue of the messages that
%% come while a worker waits for its computer, as
%% scripts/bench/savina/logmap.hum. (A selective receive of the answer is
%% quadratic here: the master's messages keep coming in ahead of it.)
%% Prints the sum of the last terms.
-module(savina_logmap).
-export([main/1]).

-define(ONE, 268435456).

next_term(X, Rate) -> (Rate * ((X * (?ONE - X)) bsr 28)) bsr 28.

rate_computer(Rate) ->
    receive
        {compute, Sender, Term} -> Sender ! {result, next_term(Term, Rate)}, rate_computer(Rate);
        stop -> ok
    end.

enqueue({Front, Back}, X) -> {Front, [X | Back]}.
dequeue({[X | Front], Back}) -> {X, {Front, Back}};
dequeue({[], []}) -> empty;
dequeue({[], Back}) -> dequeue({lists:reverse(Back), []}).

worker(Master, Computer, Term) ->
    receive Msg -> handle(Master, Computer, Term, Msg, {[], []}) end.

waiting(Master, Computer, Stash) ->
    receive
        {result, Term} -> unstash(Master, Computer, Term, Stash);
        Msg -> waiting(Master, Computer, enqueue(Stash, Msg))
    end.

handle(Master, Computer, Term, next_term, Stash) ->
    Computer ! {compute, self(), Term},
    waiting(Master, Computer, Stash);
handle(Master, Computer, Term, get_term, Stash) ->
    Master ! {result, Term},
    unstash(Master, Computer, Term, Stash);
handle(_, _, _, stop, _) ->
    ok.

unstash(Master, Computer, Term, Stash) ->
    case dequeue(Stash) of
        {Msg, Stash1} -> handle(Master, Computer, Term, Msg, Stash1);
        empty -> worker(Master, Computer, Term)
    end.

master(Actors, 1, Sum) ->
    receive {result, Term} -> io:format("~b~n", [Sum + Term]), [A ! stop || A <- Actors] end;
master(Actors, Left, Sum) ->
    receive {result, Term} -> master(Actors, Left - 1, Sum + Term) end.

send_terms(0, Workers) -> [W ! get_term || W <- Workers];
send_terms(K, Workers) -> [W ! next_term || W <- Workers], send_terms(K - 1, Workers).

increment(I) -> 25 * ?ONE * I div 10000.

main([TS, SS]) ->
    T = list_to_integer(TS),
    S = list_to_integer(SS),
    Main = self(),
    spawn(fun() ->
        Master = self(),
        Computers = [spawn(fun() -> rate_computer(346 * ?ONE div 100 + increment(I)) end) || I <- lists:seq(0, S - 1)],
        Workers = [spawn(fun() -> worker(Master, C, increment(I)) end) || {I, C} <- lists:zip(lists:seq(0, S - 1), Computers)],
        send_terms(T, Workers),
        master(Computers ++ Workers, S, 0),
        Main ! done
    end),
    receive done -> ok end,
    erlang:halt(0).
