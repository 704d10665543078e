#pragma once
// What the HDF5 reader and writer share: one lock (the Debian library is not built thread-safe),
// handles closed by RAII, and the library's own reason for a failure.
#include <hdf5.h>

#include <mutex>
#include <string>
#include <utility>

namespace siglab::hdf5 {

// Held around every call into the library; also turns off its printing of errors to stderr.
std::unique_lock<std::recursive_mutex> lock();

// The innermost description on the library's error stack ("truncated file: eof = ...").
std::string lastError();

// An hid_t closed by `close` (H5Dclose, H5Fclose, ...) unless negative.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer close) : id_(id), close_(close) {}
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, -1);
      close_ = other.close_;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  hid_t get() const { return id_; }
  explicit operator bool() const { return id_ >= 0; }
  hid_t release() { return std::exchange(id_, -1); }  // the caller closes it
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = -1;
  }

 private:
  hid_t id_ = -1;
  Closer close_ = nullptr;
};

// File access without the library's own flock: the writer's temporary is already locked by
// AtomicFileWriter (the two locks would collide), and a reader only reads.
Handle fileAccess();

// The name of a numeric type class as NumPy spells it ("float64", "int16"); empty for anything else.
std::string numericTypeName(hid_t type);

}  // namespace siglab::hdf5
