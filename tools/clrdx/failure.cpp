#include "failure.hpp"

#include <new>
#include <stdexcept>

#include "core/text.hpp"
#include "rdx/errors.hpp"

namespace clrdx {

Failure failure_of(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const rdx::ArgumentError& x) {
    return {2, x.what()};
  } catch (const rdx::ExpressionError& x) {  // the user's expression: bad input, in one line
    std::string first = x.messages.substr(0, x.messages.find('\n'));
    if (const auto at = first.find("error: "); at != std::string::npos)
      first = first.substr(at + 7);
    // The expression and the compiler's line (which may quote it) are the user's text.
    return {2, "the " + x.expression + " does not compile: `" + rdx::detail::printable(x.text) +
                   "`: " + rdx::detail::printable(first)};
  } catch (const rdx::UnsupportedError& x) {
    return {2, x.what()};
  } catch (const rdx::DeviceError& x) {
    return {2, x.what()};
  } catch (const std::bad_alloc&) {
    return {1, "out of host memory (a smaller --count, or --input to stream a file)"};
  } catch (const std::length_error&) {  // a std::vector or string larger than it can be
    return {1, "out of host memory (a smaller --count, or --input to stream a file)"};
  } catch (const std::exception& x) {
    return {1, x.what()};
  } catch (...) {
    return {1, "an exception that is not a std::exception"};
  }
}

}  // namespace clrdx
