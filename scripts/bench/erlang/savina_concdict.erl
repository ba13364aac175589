%% Savina concdict W M WP L -- the same processes, messages and persistent
%% trie as scripts/bench/savina/concdict.hum. Prints the dictionary's count
%% of reads, of writes and the sum of the values written.
-module(savina_concdict).
-export([main/1]).

next_random(X) -> (X * 1309 + 13849) band 65535.

build(Lo, 1) -> Lo;
build(Lo, Size) -> H = Size div 2, {build(Lo, H), build(Lo + H, H)}.

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

dictionary(Map, Reads, Writes, Sum, L, Main) ->
    receive
        {write, Sender, Key, Value} ->
            Sender ! {result, Value},
            dictionary(put(Map, L, Key, Value), Reads, Writes + 1, Sum + Value, L, Main);
        {read, Sender, Key} ->
            Sender ! {result, get(Map, L, Key)},
            dictionary(Map, Reads + 1, Writes, Sum, L, Main);
        end_work ->
            io:format("~b, ~b, ~b~n", [Reads, Writes, Sum]),
            Main ! done
    end.

worker(Master, Dictionary, Count, Seed, {M, WP, L} = P) ->
    receive
        _ when Count =:= M -> Master ! end_work;
        _ ->
            Seed1 = next_random(Seed),
            Seed2 = next_random(Seed1),
            case Seed1 rem 100 < WP of
                true ->
                    Seed3 = next_random(Seed2),
                    Dictionary ! {write, self(), Seed2 rem L, Seed3},
                    worker(Master, Dictionary, Count + 1, Seed3, P);
                false ->
                    Dictionary ! {read, self(), Seed2 rem L},
                    worker(Master, Dictionary, Count + 1, Seed2, P)
            end
    end.

master(Dictionary, 1) -> receive end_work -> Dictionary ! end_work end;
master(Dictionary, Left) -> receive end_work -> master(Dictionary, Left - 1) end.

main([WS, MS, WPS, LS]) ->
    [W, M, WP, L] = [list_to_integer(X) || X <- [WS, MS, WPS, LS]],
    Main = self(),
    spawn(fun() ->
        Dictionary = spawn(fun() -> dictionary(build(0, L), 0, 0, 0, L, Main) end),
        Master = spawn(fun() -> master(Dictionary, W) end),
        [spawn(fun() -> worker(Master, Dictionary, 0, I + M + WP, {M, WP, L}) end) ! do_work
         || I <- lists:seq(0, W - 1)]
    end),
    receive done -> ok end,
    erlang:halt(0).
