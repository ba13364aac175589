%% Savina chameneos C M -- the same processes and messages as
%% scripts/bench/savina/chameneos.hum. Prints the sum of the meetings, 2M.
-module(savina_chameneos).
-export([main/1]).

complement(A, A) -> A;
complement(faded, _) -> faded;
complement(_, faded) -> faded;
complement(red, yellow) -> blue;
complement(red, blue) -> yellow;
complement(yellow, red) -> blue;
complement(yellow, blue) -> red;
complement(blue, red) -> yellow;
complement(blue, yellow) -> red.

mall(N, Waiting, Sum, Faded, C, Main) ->
    receive
        {meet, _, Sender} when N =:= 0 ->
            Sender ! {exit, self()},
            mall(N, Waiting, Sum, Faded, C, Main);
        {meet, _, Sender} when Waiting =:= none ->
            mall(N, Sender, Sum, Faded, C, Main);
        {meet, _, _} = Msg ->
            Waiting ! Msg,
            mall(N - 1, none, Sum, Faded, C, Main);
        {count, Count} when Faded + 1 =:= C ->
            io:format("~b~n", [Sum + Count]),
            Main ! done;
        {count, Count} ->
            mall(N, Waiting, Sum + Count, Faded + 1, C, Main)
    end.

chameneo(Mall, Color, Meetings) ->
    receive
        {meet, Other, Sender} ->
            Color1 = complement(Color, Other),
            Sender ! {change, Color1, self()},
            Mall ! {meet, Color1, self()},
            chameneo(Mall, Color1, Meetings + 1);
        {change, Color1, _} ->
            Mall ! {meet, Color1, self()},
            chameneo(Mall, Color1, Meetings + 1);
        {exit, _} ->
            Mall ! {count, Meetings}
    end.

start(_, C, C) -> ok;
start(Mall, I, C) ->
    Color = lists:nth(I rem 3 + 1, [red, yellow, blue]),
    Mall ! {meet, Color, spawn(fun() -> chameneo(Mall, Color, 0) end)},
    start(Mall, I + 1, C).

main([CS, MS]) ->
    C = list_to_integer(CS),
    M = list_to_integer(MS),
    Main = self(),
    Mall = spawn(fun() -> mall(M, none, 0, 0, C, Main) end),
    spawn(fun() -> start(Mall, 0, C) end),
    receive done -> ok end,
    erlang:halt(0).
