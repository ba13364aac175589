%% Savina banking A N -- the same processes, messages, stash queue and
%% account tree as scripts/bench/savina/banking.hum. Prints the sum of
%% balance * (number + 1) over the accounts.
-module(savina_banking).
-export([main/1]).

-define(INITIAL, 1000000000).

next_random(X) -> (X * 1309 + 13849) band 65535.

tree([X | _], 1) -> X;
tree(Xs, N) ->
    H = N div 2,
    {L, R} = lists:split(H, Xs),
    {H, tree(L, H), tree(R, N - H)}.

lookup({H, Left, _}, I) when I < H -> lookup(Left, I);
lookup({H, _, Right}, I) -> lookup(Right, I - H);
lookup(Pid, _) -> Pid.

enqueue({Front, Back}, X) -> {Front, [X | Back]}.
dequeue({[X | Front], Back}) -> {X, {Front, Back}};
dequeue({[], []}) -> empty;
dequeue({[], Back}) -> dequeue({lists:reverse(Back), []}).

account(Id, Balance) ->
    receive Msg -> handle(Id, Balance, Msg, {[], []}) end.

handle(Id, Balance, {debit, Sender, Amount}, Stash) ->
    Sender ! reply,
    unstash(Id, Balance + Amount, Stash);
handle(Id, Balance, {credit, Teller, Amount, Destination}, Stash) ->
    Destination ! {debit, self(), Amount},
    waiting(Id, Balance - Amount, Teller, Stash);
handle(Id, Balance, {stop, Teller}, _) ->
    Teller ! {balance, Id, Balance}.

waiting(Id, Balance, Teller, Stash) ->
    receive
        reply ->
            Teller ! reply,
            unstash(Id, Balance, Stash);
        Msg ->
            waiting(Id, Balance, Teller, enqueue(Stash, Msg))
    end.

unstash(Id, Balance, Stash) ->
    case dequeue(Stash) of
        {Msg, Stash1} -> handle(Id, Balance, Msg, Stash1);
        empty -> account(Id, Balance)
    end.

teller(Accounts, Tree, Done, {A, N} = Cfg) ->
    receive
        start ->
            transfers(Tree, N, 123456, A),
            teller(Accounts, Tree, Done, Cfg);
        reply when Done + 1 =:= N ->
            [X ! {stop, self()} || X <- Accounts],
            total(A, 0);
        reply ->
            teller(Accounts, Tree, Done + 1, Cfg)
    end.

transfers(_, 0, _, _) -> ok;
transfers(Tree, K, Seed, A) ->
    S1 = next_random(Seed),
    Source = S1 rem ((A div 10) * 8),
    S2 = next_random(S1),
    S3 = next_random(S2),
    LoopId = S2 rem (A - Source),
    Dest = Source + (if LoopId =:= 0 -> 1; true -> LoopId end),
    lookup(Tree, Source) ! {credit, self(), 1000000000 div (S3 + 1), lookup(Tree, Dest)},
    transfers(Tree, K - 1, S3, A).

total(1, Sum) -> receive {balance, Id, B} -> io:format("~b~n", [Sum + (Id + 1) * B]) end;
total(Left, Sum) -> receive {balance, Id, B} -> total(Left - 1, Sum + (Id + 1) * B) end.

main([AS, NS]) ->
    A = list_to_integer(AS),
    N = list_to_integer(NS),
    Main = self(),
    spawn(fun() ->
        Accounts = [spawn(fun() -> account(I, ?INITIAL) end) || I <- lists:seq(0, A - 1)],
        self() ! start,
        teller(Accounts, tree(Accounts, A), 0, {A, N}),
        Main ! done
    end),
    receive done -> ok end,
    erlang:halt(0).
