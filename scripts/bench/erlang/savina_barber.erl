%% Savina barber N W APR AHR -- the same processes, messages and busy waits
%% as scripts/bench/savina/barber.hum. Prints the barber's haircuts and the
%% sum of its busy waits' results.
-module(savina_barber).
-export([main/1]).

next_random(X) -> (X * 1309 + 13849) band 65535.
spin(0, _, Acc) -> Acc;
spin(K, X, Acc) -> X1 = next_random(X), spin(K - 1, X1, Acc + X1).

enqueue({Front, Back}, X) -> {Front, [X | Back]}.
dequeue({[X | Front], Back}) -> {X, {Front, Back}};
dequeue({[], []}) -> empty;
dequeue({[], Back}) -> dequeue({lists:reverse(Back), []}).

room(Barber, Waiting, Size, Asleep, W) ->
    receive
        {enter, Customer} when Size =:= W ->
            Customer ! full,
            room(Barber, Waiting, Size, Asleep, W);
        {enter, Customer} when Asleep ->
            self() ! next,
            room(Barber, enqueue(Waiting, Customer), Size + 1, false, W);
        {enter, Customer} ->
            Customer ! wait,
            room(Barber, enqueue(Waiting, Customer), Size + 1, Asleep, W);
        next ->
            case dequeue(Waiting) of
                {Customer, Waiting1} ->
                    Barber ! {enter, Customer, self()},
                    room(Barber, Waiting1, Size - 1, Asleep, W);
                empty ->
                    Barber ! wait,
                    room(Barber, Waiting, Size, true, W)
            end;
        exit ->
            Barber ! exit
    end.

barber(Seed, Haircuts, Work, AHR, Main) ->
    receive
        {enter, Customer, Room} ->
            Seed1 = next_random(Seed),
            Customer ! start,
            Work1 = Work + spin(Seed1 rem AHR + 10, Seed1, 0),
            Customer ! done,
            Room ! next,
            barber(Seed1, Haircuts + 1, Work1, AHR, Main);
        wait ->
            barber(Seed, Haircuts, Work, AHR, Main);
        exit ->
            io:format("~b, ~b~n", [Haircuts, Work]),
            Main ! done
    end.

customer(Factory) ->
    receive
        full -> Factory ! {returned, self()}, customer(Factory);
        done -> Factory ! done;
        _ -> customer(Factory)
    end.

factory(Room, Haircuts, Work, {N, APR} = Cfg) ->
    receive
        start ->
            factory(Room, 0, send_customers(Room, N, 74755, Work, APR), Cfg);
        {returned, Customer} ->
            Room ! {enter, Customer},
            factory(Room, Haircuts, Work, Cfg);
        done when Haircuts + 1 =:= N ->
            Room ! exit;
        done ->
            factory(Room, Haircuts + 1, Work, Cfg)
    end.

send_customers(_, 0, _, Work, _) -> Work;
send_customers(Room, K, Seed, Work, APR) ->
    Factory = self(),
    Room ! {enter, spawn(fun() -> customer(Factory) end)},
    Seed1 = next_random(Seed),
    send_customers(Room, K - 1, Seed1, Work + spin(Seed1 rem APR + 10, Seed1, 0), APR).

main(Args) ->
    [N, W, APR, AHR] = [list_to_integer(X) || X <- Args],
    Main = self(),
    Barber = spawn(fun() -> barber(74755, 0, 0, AHR, Main) end),
    Room = spawn(fun() -> room(Barber, {[], []}, 0, true, W) end),
    spawn(fun() -> factory(Room, 0, 0, {N, APR}) end) ! start,
    receive done -> ok end,
    erlang:halt(0).
