# <tma/validate.h> and <tma/device.h>: the rule model at run time, header-only
# (include/tma). In this build and installed: the INTERFACE target
# tma::validate; installed, `find_package(tma-tidy CONFIG)` provides it.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(tmaValidate INTERFACE)
add_library(tma::validate ALIAS tmaValidate)
set_target_properties(tmaValidate PROPERTIES EXPORT_NAME validate)
target_include_directories(tmaValidate INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(tmaValidate INTERFACE cxx_std_17)

set(TMA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tma-tidy)
# One component, so that it installs alone: cmake --install build
# --component tma-validate.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tma
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT tma-validate)
install(TARGETS tmaValidate EXPORT tmaTidyValidate COMPONENT tma-validate)
install(EXPORT tmaTidyValidate NAMESPACE tma:: DESTINATION ${TMA_CMAKE_DIR}
        FILE tma-tidy-validate-targets.cmake COMPONENT tma-validate)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/tma-tidy-config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/tma-tidy-config.cmake
  INSTALL_DESTINATION ${TMA_CMAKE_DIR})
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tma-tidy-config.cmake
        DESTINATION ${TMA_CMAKE_DIR} COMPONENT tma-validate)
