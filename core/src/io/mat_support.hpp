#pragma once
// What the MAT reader and writer share: one lock (matio keeps global state), its messages caught
// instead of printed, and a file closed by RAII.
#include <matio.h>

#include <mutex>
#include <string>
#include <utility>

namespace siglab::mat {

// Held around every call into matio; also routes its log to lastMessage().
std::unique_lock<std::mutex> lock();
// matio's last complaint (empty if none), cleared by reading it.
std::string takeLastMessage();

class File {
 public:
  explicit File(mat_t* file) : file_(file) {}
  ~File() {
    if (file_) Mat_Close(file_);
  }
  File(File&& other) noexcept : file_(std::exchange(other.file_, nullptr)) {}
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  mat_t* get() const { return file_; }
  explicit operator bool() const { return file_ != nullptr; }
  mat_t* release() { return std::exchange(file_, nullptr); }

 private:
  mat_t* file_;
};

class Variable {
 public:
  explicit Variable(matvar_t* variable) : variable_(variable) {}
  ~Variable() {
    if (variable_) Mat_VarFree(variable_);
  }
  Variable(const Variable&) = delete;
  Variable& operator=(const Variable&) = delete;
  matvar_t* get() const { return variable_; }
  matvar_t* operator->() const { return variable_; }
  explicit operator bool() const { return variable_ != nullptr; }

 private:
  matvar_t* variable_;
};

}  // namespace siglab::mat
