%% Savina filterbank SIMS C CH -- the same processes, messages, sliding FIR
%% windows and delay queues as scripts/bench/savina/filterbank.hum. Prints
%% the values the sink got and their sum modulo 10^9 + 7.
-module(savina_filterbank).
-export([main/1]).

dot([X | Xs], [Y | Ys], Acc) -> dot(Xs, Ys, Acc + X * Y);
dot(_, _, Acc) -> Acc.

init([_]) -> [];
init([X | Rest]) -> [X | init(Rest)].

enqueue({Front, Back}, X) -> {Front, [X | Back]}.
dequeue({[X | Front], Back}) -> {X, {Front, Back}};
dequeue({[], Back}) -> dequeue({lists:reverse(Back), []}).

producer(Sent, SIMS) ->
    receive
        {next, Source} when Sent =:= SIMS -> Source ! exit;
        {next, Source} -> Source ! boot, producer(Sent + 1, SIMS)
    end.

source(Producer, Next, Current) ->
    receive
        boot ->
            Next ! {value, Current},
            Producer ! {next, self()},
            source(Producer, Next, (Current + 1) rem 1000);
        exit ->
            Next ! exit
    end.

branches(Banks) ->
    receive
        exit -> [B ! exit || B <- Banks];
        Msg -> [B ! Msg || B <- Banks], branches(Banks)
    end.

forward(Next) ->
    receive
        exit -> Next ! exit;
        Msg -> Next ! Msg, forward(Next)
    end.

delay(Line, Next) ->
    receive
        {value, V} ->
            {Oldest, Rest} = dequeue(Line),
            Next ! {value, Oldest},
            delay(enqueue(Rest, V), Next);
        exit ->
            Next ! exit
    end.

fir(Coefs, Window, Seen, Next, C) ->
    receive
        {value, V} ->
            Window1 = [V | init(Window)],
            if Seen < C - 1 -> fir(Coefs, Window1, Seen + 1, Next, C);
               true ->
                   Next ! {value, dot(Window1, Coefs, 0)},
                   fir(Coefs, Window1, Seen, Next, C)
            end;
        exit ->
            Next ! exit
    end.

sampler(Count, Next, C) ->
    receive
        {value, _} = Msg ->
            if Count =:= 0 -> Next ! Msg; true -> Next ! {value, 0} end,
            sampler((Count + 1) rem C, Next, C);
        exit ->
            Next ! exit
    end.

tagger(Id, Next) ->
    receive
        {value, V} -> Next ! {sourced, Id, V}, tagger(Id, Next);
        exit -> Next ! exit
    end.

place([{N, Entries} | Rest], Id, V) ->
    case lists:any(fun({I, _}) -> I =:= Id end, Entries) of
        true -> [{N, Entries} | place(Rest, Id, V)];
        false -> [{N + 1, [{Id, V} | Entries]} | Rest]
    end;
place([], Id, V) -> [{1, [{Id, V}]}].

integrator(Rounds, Exits, Next, CH) ->
    receive
        {sourced, Id, V} ->
            case place(Rounds, Id, V) of
                [{CH, Entries} | Rest] ->
                    Next ! {collection, [X || {_, X} <- Entries]},
                    integrator(Rest, Exits, Next, CH);
                Rounds1 ->
                    integrator(Rounds1, Exits, Next, CH)
            end;
        exit when Exits + 1 =:= CH -> Next ! exit;
        exit -> integrator(Rounds, Exits + 1, Next, CH)
    end.

combiner(Next) ->
    receive
        {collection, Values} -> Next ! {value, lists:sum(Values)}, combiner(Next);
        exit -> Next ! exit
    end.

sink(Count, Total, Main) ->
    receive
        {value, V} -> sink(Count + 1, (Total + V) rem 1000000007, Main);
        exit -> io:format("~b, ~b~n", [Count, Total]), Main ! done
    end.

bank(J, Integrator, C, CH) ->
    H = [I * C + J * CH + 2 * J + I + 1 || I <- lists:seq(0, C - 1)],
    F = [I * J + J * J + J + I || I <- lists:seq(0, C - 1)],
    Line = {lists:duplicate(C - 1, 0), []},
    Zeros = lists:duplicate(C, 0),
    Tagger = spawn(fun() -> tagger(J, Integrator) end),
    Fir2 = spawn(fun() -> fir(F, Zeros, 0, Tagger, C) end),
    Delay2 = spawn(fun() -> delay(Line, Fir2) end),
    Sampler = spawn(fun() -> sampler(0, Delay2, C) end),
    Fir1 = spawn(fun() -> fir(H, Zeros, 0, Sampler, C) end),
    spawn(fun() -> delay(Line, Fir1) end).

main([SS, CS, CHS]) ->
    [SIMS, C, CH] = [list_to_integer(X) || X <- [SS, CS, CHS]],
    Main = self(),
    Sink = spawn(fun() -> sink(0, 0, Main) end),
    Combiner = spawn(fun() -> combiner(Sink) end),
    Integrator = spawn(fun() -> integrator([], 0, Combiner, CH) end),
    Banks = [begin First = bank(J, Integrator, C, CH), spawn(fun() -> forward(First) end) end
             || J <- lists:seq(CH - 1, 0, -1)],
    Branches = spawn(fun() -> branches(Banks) end),
    Producer = spawn(fun() -> producer(0, SIMS) end),
    Producer ! {next, spawn(fun() -> source(Producer, Branches, 0) end)},
    receive done -> ok end,
    erlang:halt(0).
