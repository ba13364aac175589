%% Savina concsll W M WP SP -- the same processes, messages and list
%% operations as scripts/bench/savina/concsll.hum (length/1 and
%% lists:member/2 where it uses the prelude's length and member). Prints the
%% final list's length and sum.
-module(savina_concsll).
-export([main/1]).

next_random(X) -> (X * 1309 + 13849) band 65535.

insert(X, [H | _] = List) when X < H -> [X | List];
insert(X, [H | T]) -> [H | insert(X, T)];
insert(X, []) -> [X].

total([H | T], Acc) -> total(T, Acc + H);
total([], Acc) -> Acc.

sorted_list(List, Main) ->
    receive
        {write, Sender, Value} ->
            Sender ! {result, Value},
            sorted_list(insert(Value, List), Main);
        {contains, Sender, Value} ->
            Sender ! {result, case lists:member(Value, List) of true -> 1; false -> 0 end},
            sorted_list(List, Main);
        {size, Sender} ->
            Sender ! {result, length(List)},
            sorted_list(List, Main);
        end_work ->
            io:format("~b, ~b~n", [length(List), total(List, 0)]),
            Main ! done
    end.

worker(Master, List, Count, Seed, {M, WP, SP} = P) ->
    receive
        _ when Count =:= M -> Master ! end_work;
        _ ->
            Seed1 = next_random(Seed),
            R = Seed1 rem 100,
            if R < SP ->
                   List ! {size, self()},
                   worker(Master, List, Count + 1, Seed1, P);
               true ->
                   Seed2 = next_random(Seed1),
                   if R < SP + WP -> List ! {write, self(), Seed2};
                      true -> List ! {contains, self(), Seed2}
                   end,
                   worker(Master, List, Count + 1, Seed2, P)
            end
    end.

master(List, 1) -> receive end_work -> List ! end_work end;
master(List, Left) -> receive end_work -> master(List, Left - 1) end.

main([WS, MS, WPS, SPS]) ->
    [W, M, WP, SP] = [list_to_integer(X) || X <- [WS, MS, WPS, SPS]],
    Main = self(),
    spawn(fun() ->
        List = spawn(fun() -> sorted_list([], Main) end),
        Master = spawn(fun() -> master(List, W) end),
        [spawn(fun() -> worker(Master, List, 0, I + M + WP + SP, {M, WP, SP}) end) ! do_work
         || I <- lists:seq(0, W - 1)]
    end),
    receive done -> ok end,
    erlang:halt(0).
