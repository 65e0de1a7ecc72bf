// Errors and warnings of the host driver (docs/driver.md, "Bad input").
//
// API misuse is rejected with a DriverError before anything is written: a call that throws
// leaves the command buffer, the KMD's rings and the device exactly as they were. Problems the
// source documents resolve by falling back (no free virtual or hardware DSID, two live resource
// groups sharing a resource) are not errors: they go to a WarningSink and are counted.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace tessera::driver {

// API misuse, malformed input, or a device that cannot do what was asked.
class DriverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A configuration or trace file that does not parse: the message starts "FILE:LINE:COLUMN: ".
class ConfigError : public DriverError {
 public:
  ConfigError(std::string file, unsigned line, unsigned column, const std::string& what);
  const std::string& file() const { return file_; }
  unsigned line() const { return line_; }
  unsigned column() const { return column_; }

 private:
  std::string file_;
  unsigned line_;
  unsigned column_;
};

// The device halted a queue on a command-stream error (CP ERROR_STATUS / ERROR_ADDR).
class DeviceFault : public DriverError {
 public:
  DeviceFault(uint32_t error_status, uint32_t error_addr, const std::string& what)
      : DriverError(what), error_status_(error_status), error_addr_(error_addr) {}
  uint32_t error_status() const { return error_status_; }
  uint32_t error_addr() const { return error_addr_; }

 private:
  uint32_t error_status_;
  uint32_t error_addr_;
};

// Where warnings go. The default prints "tessera-driver: warning: ..." to stderr.
using WarningSink = std::function<void(const std::string&)>;
WarningSink default_warning_sink();

}  // namespace tessera::driver
