// The serializer and queue of Dale Schumacher's "Composing Actors" (2010),
// in the classic dialect, with the closing brackets the extraction lost put
// back and the article's `IF ... : [` kept.
#include <doctest/doctest.h>

#include "ast_dump.hpp"

namespace {

const char* const composing_actors = R"HUM(
LET serializer_beh(svc) = \(cust, req).[
	CREATE ret WITH return_beh(SELF)
	BECOME serializer_busy_beh(svc, cust, ret, NIL)
	SEND (ret, req) TO svc
]
LET return_beh(caller) = \res.[
	SEND (SELF, res) TO caller
]
LET serializer_busy_beh(svc, cust, ret, pending) = \msg.[
	CASE msg OF
	($ret, res) : [
		SEND res TO cust
		IF $pending = ((cust', req'), rest) [
			CREATE ret' WITH return_beh(SELF)
			BECOME serializer_busy_beh(svc, cust', ret', rest)
			SEND (ret', req') TO svc
		] ELSE [
			BECOME serializer_beh(svc)
		]
	]
	(cust', req') : [
		LET pending' = $((cust', req'), pending)
		BECOME serializer_busy_beh(svc, cust, ret, pending')
	]
	END
]
LET serialized_queue_beh = \msg.[
	BECOME serializer_beh(NEW empty_queue_beh)
	SEND msg TO SELF
]
LET empty_queue_beh = \(cust, req).[
	CASE req OF
	#take : [ SEND NIL TO cust ]
	(#put, item) : [
		CREATE e WITH queue_entry_beh(item, NIL)
		BECOME queue_beh(e, e)
		SEND item TO cust
	]
	END
]
LET queue_beh(first, last) = \(cust, req).[
	CASE req OF
	#take : [
		BECOME queue_first_beh(cust, first, last)
		SEND (SELF, #remove) TO first
	]
	(#put, item) : [
		BECOME queue_last_beh(cust, first, last)
		SEND (SELF, #append, item) TO last
	]
	END
]
LET queue_entry_beh(item, next) = \(cust, req).[
	CASE req OF
	#remove : [
		SEND (SELF, item, next) TO cust
	]
	(#append, item') : [
		CREATE next' WITH queue_entry_beh(item', next)
		BECOME queue_entry_beh(item, next')
		SEND (SELF, item', next') TO cust
	]
	END
]
LET queue_first_beh(cust, first, last) = \msg.[
	IF $msg = ($first, item, next) : [
		IF $next = NIL [
			BECOME empty_queue_beh
		] ELSE [
			BECOME queue_beh(next, last)
		]
		SEND item TO cust
	]
]
LET queue_last_beh(cust, first, last) = \msg.[
	IF $msg = ($last, item, next) : [
		BECOME queue_beh(first, next)
		SEND item TO cust
	]
]
)HUM";

}  // namespace

TEST_CASE("the serializer and queue of 'Composing Actors' parse") {
  auto r = humus::test::parse(composing_actors);
  REQUIRE_MESSAGE(!r.error, r.error->message);
  const auto& stmts = r.program->stmts;
  REQUIRE(stmts.size() == 9);
  for (const auto& s : stmts) CHECK(s->kind == humus::ast::StmtKind::Let);
  CHECK(stmts[0]->equation->name == "serializer_beh");
  CHECK(stmts[0]->loc.line == 2);
  CHECK(humus::test::dump(*stmts[1]) == "LET return_beh(caller) = (\\ res [SEND (, SELF res) TO caller])");
  CHECK(humus::test::dump(*stmts[8]) ==
        "LET queue_last_beh((, cust first last)) = (\\ msg [(IF $msg = (, $last item next) "
        "[BECOME (call queue_beh (, first next)); SEND item TO cust])])");
  CHECK(humus::test::dump(*stmts[2]) ==
        "LET serializer_busy_beh((, svc cust ret pending)) = (\\ msg [(CASE msg OF "
        "(, $ret res) : [SEND res TO cust; (IF $pending = (, (, cust' req') rest) "
        "[CREATE ret' WITH (call return_beh SELF); BECOME (call serializer_busy_beh (, svc cust' ret' rest)); "
        "SEND (, ret' req') TO svc] ELSE [BECOME (call serializer_beh svc)])] "
        "(, cust' req') : [LET pending' = $(, (, cust' req') pending); "
        "BECOME (call serializer_busy_beh (, svc cust ret pending'))] END)])");
}

TEST_CASE("the same code in the current dialect parses to the same equations") {
  auto classic = humus::test::parsed("LET return_beh(caller) = \\res.[ SEND (SELF, res) TO caller ]");
  auto current = humus::test::parsed("DEF return_beh(caller) AS \\res.[ SEND (SELF, res) TO caller ]");
  CHECK(classic == current);
}
