// The values a heap object holds counted references to, by kind: for the
// walks over the object graph (the cycle collector, pinning a global).
#pragma once

#include "runtime/actor.hpp"
#include "runtime/code.hpp"
#include "runtime/foreign.hpp"
#include "runtime/map_trie.hpp"
#include "runtime/packed.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

// Calls f on each value `o` holds a counted reference to. Must match exactly
// what destroy() (value.cpp) releases: for the cycle collector, an edge
// counted here that holds no reference would make a live object look
// unreferenced.
template <class F>
void for_children(Object* o, F&& f) {
  switch (o->kind) {
    case ObjKind::Pair: {
      auto* p = static_cast<Pair*>(o);
      f(p->head);
      f(p->tail);
      break;
    }
    case ObjKind::Actor:
      f(static_cast<Actor*>(o)->behavior);  // queued messages are roots: not edges
      break;
    case ObjKind::Closure: {
      auto* c = static_cast<Closure*>(o);
      for (uint32_t i = 0; i < c->count; ++i) f(c->captures()[i]);
      break;
    }
    case ObjKind::Block: {
      auto* b = static_cast<BlockValue*>(o);
      for (uint32_t i = 0; i < b->count; ++i) f(b->captures()[i]);
      break;
    }
    case ObjKind::Envelope:
      f(static_cast<Envelope*>(o)->value);
      break;
    case ObjKind::Str:
      f(static_cast<Str*>(o)->base);  // empty, or the string whose data a slice shares
      break;
    case ObjKind::Map: {
      auto* m = static_cast<Map*>(o);
      f(m->trie);
      f(m->items_slot());  // empty, or the list of items once made
      break;
    }
    case ObjKind::Lines: {
      auto* l = static_cast<Lines*>(o);
      f(l->base);  // empty, or the owner a slice shares
      f(l->text);
      f(l->next);
      f(l->items_slot());  // empty, or the pairs once made
      break;
    }
    case ObjKind::MapTrie: {
      auto* t = static_cast<MapTrie*>(o);
      for (uint32_t i = 0; i < t->items; ++i) {
        f(t->item_array()[i].key);
        f(t->item_array()[i].value);
      }
      for (uint32_t i = 0; i < t->nodes; ++i) f(t->node_array()[i]);
      break;
    }
    case ObjKind::BigInt:
    case ObjKind::Native:
      break;
  }
}

}  // namespace humus::rt
