%% The Erlang twin of readlines.hum: the lines of a file, read ahead.
-module(readlines).
-export([main/1]).
main([Path]) ->
    {ok, F} = file:open(Path, [read, raw, binary, read_ahead]),
    {Lines, Chars} = loop(F, 0, 0),
    io:format("~p, ~p~n", [Lines, Chars]),
    halt().
loop(F, Lines, Chars) ->
    case file:read_line(F) of
        eof -> {Lines, Chars};
        {ok, Line} -> loop(F, Lines + 1, Chars + byte_size(string:trim(Line, trailing, "\n")))
    end.
