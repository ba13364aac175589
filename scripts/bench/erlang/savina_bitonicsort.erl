%% Savina bitonicsort N -- the same processes, messages, tries of queues and
%% composites made on their first message as
%% scripts/bench/savina/bitonicsort.hum. Prints the count, the sum and the
%% number of values smaller than the one before.
-module(savina_bitonicsort).
-export([main/1]).

next_random(X) -> (X * 1309 + 13849) band 65535.

enqueue({Front, Back}, X) -> {Front, [X | Back]}.
dequeue({[X | Front], Back}) -> {X, {Front, Back}};
dequeue({[], []}) -> empty;
dequeue({[], Back}) -> dequeue({lists:reverse(Back), []}).

trie(1, V) -> V;
trie(Size, V) -> T = trie(Size div 2, V), {T, T}.

get(T, 1, _) -> T;
get({Lower, Upper}, Size, Key) ->
    H = Size div 2,
    if Key < H -> get(Lower, H, Key); true -> get(Upper, H, Key - H) end.

put(_, 1, _, Value) -> Value;
put({Lower, Upper}, Size, Key, Value) ->
    H = Size div 2,
    if Key < H -> {put(Lower, H, Key, Value), Upper};
       true -> {Lower, put(Upper, H, Key - H, Value)}
    end.

value_data(Order, Next) ->
    receive
        {value, V} -> Next ! {data, Order, V}, value_data(Order, Next);
        exit -> Next ! exit;
        Msg -> Next ! Msg, value_data(Order, Next)
    end.

data_value(Next) ->
    receive
        {data, _, V} -> Next ! {value, V}, data_value(Next);
        exit -> Next ! exit;
        Msg -> Next ! Msg, data_value(Next)
    end.

splitter(Length, All, [Receiver | Rest] = Current, Run) ->
    receive
        {value, _} = Msg ->
            Receiver ! Msg,
            if Run + 1 =:= Length ->
                   splitter(Length, All, case Rest of [] -> All; _ -> Rest end, 0);
               true ->
                   splitter(Length, All, Current, Run + 1)
            end;
        exit ->
            [X ! exit || X <- All]
    end.

joiner(Length, N, Queues, Index, Run, Exits, Next) ->
    receive
        {data, Order, V} ->
            drain(Length, N, put(Queues, N, Order, enqueue(get(Queues, N, Order), V)), Index, Run, Exits, Next);
        exit when Exits + 1 =:= N ->
            Next ! exit;
        exit ->
            joiner(Length, N, Queues, Index, Run, Exits + 1, Next)
    end.

drain(Length, N, Queues, Index, Run, Exits, Next) ->
    case dequeue(get(Queues, N, Index)) of
        {V, Q} ->
            Next ! {value, V},
            Queues1 = put(Queues, N, Index, Q),
            if Run + 1 =:= Length -> drain(Length, N, Queues1, (Index + 1) rem N, 0, Exits, Next);
               true -> drain(Length, N, Queues1, Index, Run + 1, Exits, Next)
            end;
        empty ->
            joiner(Length, N, Queues, Index, Run, Exits, Next)
    end.

new_joiner(Length, N, Next) ->
    Queues = trie(N, {[], []}),
    spawn(fun() -> joiner(Length, N, Queues, 0, 0, 0, Next) end).

compare_exchange(Order, Up, Next) ->
    receive
        {value, K1} ->
            receive
                {value, K2} ->
                    {Lo, Hi} = if K1 =< K2 -> {K1, K2}; true -> {K2, K1} end,
                    if Up -> Next ! {data, Order, Lo}, Next ! {data, Order, Hi};
                       true -> Next ! {data, Order, Hi}, Next ! {data, Order, Lo}
                    end,
                    compare_exchange(Order, Up, Next);
                exit ->
                    Next ! exit
            end;
        exit ->
            Next ! exit
    end.

spawn_n(F, N) -> [F(I) || I <- lists:seq(0, N - 1)].

%% A composite: makes its parts when its first message comes and passes
%% every message to the part Make returns.
composite(Make) -> spawn(fun() -> receive Msg -> Head = Make(), Head ! Msg, forward(Head) end end).
forward(Head) ->
    receive
        exit -> Head ! exit;
        Msg -> Head ! Msg, forward(Head)
    end.

partition(Order, Length, Up, Next) ->
    composite(fun() ->
        Half = Length div 2,
        Joiner = new_joiner(1, Half, spawn(fun() -> value_data(Order, Next) end)),
        Workers = spawn_n(fun(I) -> spawn(fun() -> compare_exchange(I, Up, Joiner) end) end, Half),
        spawn(fun() -> splitter(1, Workers, Workers, 0) end)
    end).

step_workers(Length, N, UpOf, Joiner) ->
    spawn_n(fun(I) when Length > 2 -> partition(I, Length, UpOf(I), Joiner);
               (I) -> spawn(fun() -> compare_exchange(I, UpOf(I), Joiner) end)
            end, N).

step_of_merge(Length, N, DirectionCounter, Next) ->
    composite(fun() ->
        Joiner = new_joiner(Length, N, spawn(fun() -> data_value(Next) end)),
        Workers = step_workers(Length, N, fun(I) -> (I div DirectionCounter) rem 2 =:= 0 end, Joiner),
        spawn(fun() -> splitter(Length, Workers, Workers, 0) end)
    end).

step_of_last_merge(Length, N, Up, Next) ->
    composite(fun() ->
        Joiner = new_joiner(Length, N, Next),
        Workers = step_workers(Length, N, fun(_) -> Up end, Joiner),
        spawn(fun() -> splitter(Length, Workers, Workers, 0) end)
    end).

merge_steps(_, I, Next, _) when I < 1 -> Next;
merge_steps(P, I, Next, N) -> merge_steps(P, I div 2, step_of_merge(P div I, (N div P) * I, I, Next), N).

last_merge_steps(I, _, Next, _) when I < 1 -> Next;
last_merge_steps(I, Up, Next, N) -> last_merge_steps(I div 2, Up, step_of_last_merge(N div I, I, Up, Next), N).

merge_stage(P, Next, N) -> composite(fun() -> merge_steps(P, P div 2, Next, N) end).
last_merge_stage(Up, Next, N) -> composite(fun() -> last_merge_steps(N div 2, Up, Next, N) end).
stages(I, Next, _) when I < 2 -> Next;
stages(I, Next, N) -> stages(I div 2, merge_stage(I, Next, N), N).
kernel(Up, Next, N) -> composite(fun() -> stages(N div 2, last_merge_stage(Up, Next, N), N) end).

validator(Count, Sum, Prev, Errors, Main) ->
    receive
        {value, V} ->
            validator(Count + 1, Sum + V, V, if V < Prev -> Errors + 1; true -> Errors end, Main);
        exit ->
            io:format("~b, ~b, ~b~n", [Count, Sum, Errors]),
            Main ! done
    end.

source(0, _, Next) -> Next ! exit;
source(K, Seed, Next) -> Seed1 = next_random(Seed), Next ! {value, Seed1}, source(K - 1, Seed1, Next).

main([NS]) ->
    N = list_to_integer(NS),
    Main = self(),
    spawn(fun() ->
        Validator = spawn(fun() -> validator(0, 0, 0, 0, Main) end),
        source(N, 2048, kernel(true, spawn(fun() -> data_value(Validator) end), N))
    end),
    receive done -> ok end,
    erlang:halt(0).
