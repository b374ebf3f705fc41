// Objects a context keeps by key, made on first use: one lock for the map, each object locks
// itself where it needs to (Context::Impl::cached by a string, fast_*'s kernel slots by a struct).
#pragma once
#include <map>
#include <memory>
#include <mutex>

namespace rdx::detail {

template <class Key, class T>
class KeyedSlots {
 public:
  // The object under `key`, else make()'s, kept under it.
  template <class Make>
  std::shared_ptr<T> get(const Key& key, Make&& make) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& slot = slots_[key];
    if (!slot) slot = make();
    return slot;
  }
  // Drops the object under `key` (holders keep theirs).
  void forget(const Key& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    slots_.erase(key);
  }

 private:
  std::mutex mutex_;
  std::map<Key, std::shared_ptr<T>> slots_;
};

}  // namespace rdx::detail
