%% bigstate L R -- the same processes, messages and persistent trie as
%% scripts/bench/savina/bigstate.hum. Prints the sum of the answers and the
%% sum of the trie.
-module(savina_bigstate).
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

total(T, 1) -> T;
total({Lower, Upper}, Size) -> total(Lower, Size div 2) + total(Upper, Size div 2).

server(Trie, L) ->
    receive
        {inc, Client, Key} ->
            V = get(Trie, L, Key) + 1,
            Client ! V,
            server(put(Trie, L, Key, V), L);
        {total, Client} ->
            Client ! total(Trie, L)
    end.

client(Server, 0, _, Sum, _) ->
    receive V -> Server ! {total, self()}, receive T -> io:format("~b, ~b~n", [Sum + V, T]) end end;
client(Server, Left, Seed, Sum, L) ->
    receive
        V ->
            S1 = next_random(Seed),
            S2 = next_random(S1),
            Server ! {inc, self(), (S1 * 65536 + S2) rem L},
            client(Server, Left - 1, S2, Sum + V, L)
    end.

main([LS, RS]) ->
    L = list_to_integer(LS),
    R = list_to_integer(RS),
    Main = self(),
    spawn(fun() ->
        Server = spawn(fun() -> server(build(0, L), L) end),
        self() ! 0,
        client(Server, R, 1, 0, L),
        Main ! done
    end),
    receive done -> ok end,
    erlang:halt(0).
