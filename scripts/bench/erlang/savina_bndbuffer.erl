%% Savina bndbuffer B P C N PC CC -- the same processes, messages, queues
%% and integer processItem as scripts/bench/savina/bndbuffer.hum. Prints the
%% sum of the consumers' sums.
-module(savina_bndbuffer).
-export([main/1]).

next_random(X) -> (X * 1309 + 13849) band 65535.
spin(0, _, Acc) -> Acc;
spin(K, X, Acc) -> X1 = next_random(X), spin(K - 1, X1, Acc + X1).
process_item(Item, Cost) -> spin(Cost * 100, Cost, Item).

enqueue({Front, Back}, X) -> {Front, [X | Back]}.
dequeue({[X | Front], Back}) -> {X, {Front, Back}};
dequeue({[], []}) -> empty;
dequeue({[], Back}) -> dequeue({lists:reverse(Back), []}).

manager(Producers, Consumers, Idle, Pending, NPending, Ended, Cfg) ->
    receive
        {data, _, Producer} = Msg ->
            case dequeue(Consumers) of
                {Consumer, Consumers1} ->
                    Consumer ! Msg,
                    serve_producer(Producer, Producers, Consumers1, Idle - 1, Pending, NPending, Ended, Cfg);
                empty ->
                    serve_producer(Producer, Producers, Consumers, Idle, enqueue(Pending, Msg), NPending + 1, Ended, Cfg)
            end;
        {consumer_available, Consumer} ->
            case dequeue(Pending) of
                {Item, Pending1} ->
                    Consumer ! Item,
                    case dequeue(Producers) of
                        {Producer, Producers1} ->
                            Producer ! produce,
                            manager(Producers1, Consumers, Idle, Pending1, NPending - 1, Ended, Cfg);
                        empty ->
                            manager(Producers, Consumers, Idle, Pending1, NPending - 1, Ended, Cfg)
                    end;
                empty ->
                    try_exit(Producers, enqueue(Consumers, Consumer), Idle + 1, Pending, NPending, Ended, Cfg)
            end;
        producer_exit ->
            try_exit(Producers, Consumers, Idle, Pending, NPending, Ended + 1, Cfg)
    end.

serve_producer(Producer, Producers, Consumers, Idle, Pending, NPending, Ended, {B, P, _} = Cfg) ->
    if NPending < B - P ->
           Producer ! produce,
           manager(Producers, Consumers, Idle, Pending, NPending, Ended, Cfg);
       true ->
           manager(enqueue(Producers, Producer), Consumers, Idle, Pending, NPending, Ended, Cfg)
    end.

try_exit(_, {Front, Back}, C, _, _, P, {_, P, C}) ->
    [X ! exit || X <- Front],
    [X ! exit || X <- Back],
    total(C, 0);
try_exit(Producers, Consumers, Idle, Pending, NPending, Ended, Cfg) ->
    manager(Producers, Consumers, Idle, Pending, NPending, Ended, Cfg).

total(1, Sum) -> receive {total, N} -> io:format("~b~n", [Sum + N]) end;
total(Left, Sum) -> receive {total, N} -> total(Left - 1, Sum + N) end.

producer(Manager, Made, Item, N, PC) ->
    receive
        produce when Made =:= N -> Manager ! producer_exit;
        produce ->
            Item1 = process_item(Item, PC),
            Manager ! {data, Item1, self()},
            producer(Manager, Made + 1, Item1, N, PC)
    end.

consumer(Manager, Sum, CC) ->
    receive
        {data, Item, _} ->
            Manager ! {consumer_available, self()},
            consumer(Manager, process_item(Sum + Item, CC), CC);
        exit ->
            Manager ! {total, Sum}
    end.

main(Args) ->
    [B, P, C, N, PC, CC] = [list_to_integer(X) || X <- Args],
    Self = self(),
    spawn(fun() ->
        Manager = self(),
        Consumers = [spawn(fun() -> consumer(Manager, 0, CC) end) || _ <- lists:seq(1, C)],
        [spawn(fun() -> producer(Manager, 0, 0, N, PC) end) ! produce || _ <- lists:seq(1, P)],
        manager({[], []}, {Consumers, []}, C, {[], []}, 0, 0, {B, P, C}),
        Self ! done
    end),
    receive done -> ok end,
    erlang:halt(0).
