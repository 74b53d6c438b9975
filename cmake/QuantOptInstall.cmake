# Installs headers (including the generated .inc files), the libraries, the
# tools and a CMake package so that another MLIR-based project can do
#   find_package(QuantOpt REQUIRED CONFIG)
#   target_link_libraries(my-tool PRIVATE QuantOpt::QuantOptRegistration)
include(CMakePackageConfigHelpers)

set(QUANT_OPT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/QuantOpt)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/QuantOpt
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/QuantOpt
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc")

set(QUANT_OPT_EXPORTED_LIBS
  QuantOptReference
  QuantOptQntDialect
  QuantOptQntKernelDialect
  QuantOptQntTransforms
  QuantOptTarget
  QuantOptQntToLinalg
  QuantOptKernelEpilogue
  QuantOptQntToArmNeonPlanning
  QuantOptQntToArmNeon
  QuantOptQntToRiscvV
  QuantOptQntToX86VnniPlanning
  QuantOptQntToX86Vnni
  QuantOptTosaToQnt
  QuantOptPipelines
  QuantOptRegistration
  )
foreach(lib ${QUANT_OPT_EXPORTED_LIBS})
  target_include_directories(${lib} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

install(TARGETS ${QUANT_OPT_EXPORTED_LIBS}
  EXPORT QuantOptTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS quant-opt quant-translate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The ONNX importer: the tool, and its library in an export set of its own
# (QuantOpt::QuantOptONNXImport), so that only consumers of the importer
# need ONNX and protobuf (QuantOptConfig.cmake loads it when they are found).
if(TARGET QuantOptONNXImport)
  target_include_directories(QuantOptONNXImport INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS QuantOptONNXImport
    EXPORT QuantOptONNXImportTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT QuantOptONNXImportTargets
    NAMESPACE QuantOpt::
    DESTINATION ${QUANT_OPT_INSTALL_CMAKEDIR})
  install(TARGETS quant-import-onnx RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(TARGETS QuantOptPlugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT QuantOptTargets
  NAMESPACE QuantOpt::
  DESTINATION ${QUANT_OPT_INSTALL_CMAKEDIR})

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/QuantOptConfig.cmake.in
  ${PROJECT_BINARY_DIR}/QuantOptConfig.cmake
  INSTALL_DESTINATION ${QUANT_OPT_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/QuantOptConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/QuantOptConfig.cmake
  ${PROJECT_BINARY_DIR}/QuantOptConfigVersion.cmake
  DESTINATION ${QUANT_OPT_INSTALL_CMAKEDIR})
