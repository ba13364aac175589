%% sortedlist C M -- one process holds a sorted list; C clients each make M
%% requests (the same algorithm and messages as scripts/bench/sortedlist.hum).
-module(sortedlist).
-export([main/1]).

-define(R, 1000000).

next_random(X) -> (X * 1103515245 + 12345) rem 2147483648.

insert(X, [H | T]) when H < X -> [H | insert(X, T)];
insert(X, List) -> [X | List].

contains(X, [H | T]) ->
    if H =:= X -> true; H < X -> contains(X, T); true -> false end;
contains(_, []) -> false.

total([H | T], Acc) -> total(T, Acc + H);
total([], Acc) -> Acc.

list_server(List, Size) ->
    receive
        {Cust, insert, X} -> Cust ! ok, list_server(insert(X, List), Size + 1);
        {Cust, contains, X} -> Cust ! contains(X, List), list_server(List, Size);
        {Cust, total} -> Cust ! {Size, total(List, 0)}, list_server(List, Size)
    end.

client(Server, Done, J, Seed, Hits) ->
    receive
        Reply ->
            Hits1 = if Reply =:= true -> Hits + 1; true -> Hits end,
            if J =:= 0 -> Done ! Hits1;
               true ->
                   Seed1 = next_random(Seed),
                   X = Seed1 rem ?R,
                   if J rem 10 =:= 0 -> Server ! {self(), insert, X};
                      true -> Server ! {self(), contains, X}
                   end,
                   client(Server, Done, J - 1, Seed1, Hits1)
            end
    end.

done(Server, 1) -> receive _ -> Server ! {self(), total}, receive {S, T} -> io:format("~b, ~b~n", [S, T]) end end;
done(Server, Left) -> receive _ -> done(Server, Left - 1) end.

main([CS, MS]) ->
    C = list_to_integer(CS),
    M = list_to_integer(MS),
    Server = spawn(fun() -> list_server([], 0) end),
    Self = self(),
    Done = spawn(fun() -> done(Server, C), Self ! finished end),
    [spawn(fun() -> client(Server, Done, M, K, 0) end) ! start || K <- lists:seq(C, 1, -1)],
    receive finished -> ok end,
    erlang:halt(0).
