%% interp N -- an interpreter written in Erlang, the same as
%% scripts/bench/interp.hum: programs are trees of tuples.
-module(interp).
-export([main/1]).

lookup([V | Rest], I) -> if I =:= 0 -> V; true -> lookup(Rest, I - 1) end.

function(fib) ->
    {'if', {lt, {var, 0}, {num, 2}},
     {var, 0},
     {add, {call, fib, [{sub, {var, 0}, {num, 1}}]},
           {call, fib, [{sub, {var, 0}, {num, 2}}]}}};
function(tak) ->
    {'if', {lt, {var, 1}, {var, 0}},
     {call, tak, [{call, tak, [{sub, {var, 0}, {num, 1}}, {var, 1}, {var, 2}]},
                  {call, tak, [{sub, {var, 1}, {num, 1}}, {var, 2}, {var, 0}]},
                  {call, tak, [{sub, {var, 2}, {num, 1}}, {var, 0}, {var, 1}]}]},
     {var, 2}}.

eval(E, Env) ->
    case E of
        {num, N} -> N;
        {var, I} -> lookup(Env, I);
        {add, A, B} -> eval(A, Env) + eval(B, Env);
        {sub, A, B} -> eval(A, Env) - eval(B, Env);
        {lt, A, B} -> eval(A, Env) < eval(B, Env);
        {'if', C, T, F} -> case eval(C, Env) of true -> eval(T, Env); _ -> eval(F, Env) end;
        {call, Name, Args} -> eval(function(Name), eval_args(Args, Env))
    end.
eval_args([A | Rest], Env) -> [eval(A, Env) | eval_args(Rest, Env)];
eval_args([], _) -> [].

main([NS]) ->
    N = list_to_integer(NS),
    Self = self(),
    spawn(fun() ->
                  Self ! {eval({call, fib, [{num, N}]}, []),
                          eval({call, tak, [{num, 18}, {num, 12}, {num, 6}]}, [])}
          end),
    receive {F, T} -> io:format("~b, ~b~n", [F, T]) end,
    erlang:halt(0).
