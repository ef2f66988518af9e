#pragma once
// Expected<T, E>: std::expected where the standard library has it (g++ 12 with C++23),
// otherwise a small stand-in with the same surface, so the name parser and archive readers
// also build with clang 14 for libFuzzer (its libstdc++ <expected> needs newer concepts).
#include <version>

#if defined(__cpp_lib_expected)
#include <expected>
namespace cudnnctl {
template <class T, class E> using Expected = std::expected<T, E>;
template <class E> using Unexpected = std::unexpected<E>;
} // namespace cudnnctl
#else
#include <type_traits>
#include <utility>
#include <variant>
namespace cudnnctl {

template <class E> class Unexpected {
public:
  explicit Unexpected(E e) : m_error(std::move(e)) {}
  E& error() & { return m_error; }
  E&& error() && { return std::move(m_error); }
  const E& error() const& { return m_error; }

private:
  E m_error;
};
template <class E> Unexpected(E) -> Unexpected<E>;

template <class T, class E> class Expected {
public:
  Expected() requires std::is_default_constructible_v<T> : m_v(std::in_place_index<0>) {}
  template <class U = T>
    requires std::is_constructible_v<T, U&&> && (!std::is_same_v<std::remove_cvref_t<U>, Expected>)
  Expected(U&& v) : m_v(std::in_place_index<0>, std::forward<U>(v)) {}
  template <class G> Expected(Unexpected<G> u) : m_v(std::in_place_index<1>, std::move(u).error()) {}

  bool has_value() const { return m_v.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & { return std::get<0>(m_v); }
  const T& value() const& { return std::get<0>(m_v); }
  T&& value() && { return std::get<0>(std::move(m_v)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  E& error() & { return std::get<1>(m_v); }
  const E& error() const& { return std::get<1>(m_v); }
  E&& error() && { return std::get<1>(std::move(m_v)); }

private:
  std::variant<T, E> m_v;
};

template <class E> class Expected<void, E> {
public:
  Expected() = default;
  template <class G> Expected(Unexpected<G> u) : m_error(std::move(u).error()), m_failed(true) {}
  bool has_value() const { return !m_failed; }
  explicit operator bool() const { return has_value(); }
  void value() const {}
  E& error() & { return m_error; }
  const E& error() const& { return m_error; }

private:
  E m_error{};
  bool m_failed = false;
};

} // namespace cudnnctl
#endif
